import type { ButtonHTMLAttributes } from "react";

import { buttonClass, type ButtonVariant } from "~/ui/button";

/** The owner's forms' buttons, in their small size, drawn with the site's buttonClass. */

type ButtonProps = Omit<ButtonHTMLAttributes<HTMLButtonElement>, "type" | "className">;

/** A submit button naming what it asks its section's action to do (`intent`: "save", "up"…). */
export function IntentButton({
  intent,
  variant,
  ...props
}: { intent: string; variant?: ButtonVariant } & Omit<ButtonProps, "name" | "value">) {
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

/** Cancel, which leaves a confirmation without sending anything. */
export function CancelButton({ onClick }: { onClick: () => void }) {
  return (
    <button
      type="button"
      className={buttonClass({ variant: "secondary", size: "sm" })}
      onClick={onClick}
    >
      Cancel
    </button>
  );
}
