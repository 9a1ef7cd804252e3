import type { ButtonHTMLAttributes } from "react";

import { buttonClass, type ButtonVariant } from "~/ui/button";

/**
 * A submit button of the owner's forms, in their small size, naming what it asks its section's
 * action to do (`intent`: "save", "upload", "delete"…). Drawn with buttonClass, not <Button>:
 * the home page loads the module both live in, and would carry <Button> for the editor's sake.
 */
export function IntentButton({
  intent,
  variant,
  ...props
}: { intent: string; variant?: ButtonVariant } & Omit<
  ButtonHTMLAttributes<HTMLButtonElement>,
  "type" | "name" | "value" | "className"
>) {
  return (
    <button
      type="submit"
      name="intent"
      value={intent}
      className={buttonClass({ variant, size: "sm" })}
      {...props}
    />
  );
}
