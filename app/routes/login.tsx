import { data, Form, redirect, useNavigation } from "react-router";

import { appContext } from "~/context";
import { logEvent } from "~/lib/log.server";
import { pageMeta, siteOf } from "~/features/site";
import { retryAfter } from "~/lib/limits";
import {
  deviceCookie,
  deviceTokenOf,
  isOwner,
  safeRedirect,
  sessionCookie,
  SIGN_IN_BUSY,
  SIGN_IN_BUSY_RETRY_MS,
  SIGN_IN_RETRY_AFTER,
  SIGN_IN_THROTTLED,
  signIn,
} from "~/features/owner/index.server";

import type { Route } from "./+types/login";
import { buttonClass } from "~/ui/button";

const WRONG_PASSWORD = "That password is not right.";

export async function loader({ request, context }: Route.LoaderArgs) {
  const redirectTo = safeRedirect(new URL(request.url).searchParams.get("redirectTo"));
  if (await isOwner(request, context)) throw redirect(redirectTo);
  return { redirectTo };
}

export async function action({ request, context }: Route.ActionArgs) {
  const form = await request.formData().catch(() => null);
  if (!form) return data({ error: "The form could not be read." }, { status: 400 });
  const password = form.get("password");
  const redirectTo = safeRedirect(form.get("redirectTo"));
  const { db, clientAddress, requestId } = context.get(appContext);
  if (typeof password !== "string" || password === "") {
    return data({ error: "Enter the password." }, { status: 400 });
  }
  const result = await signIn(db, password, clientAddress, await deviceTokenOf(request, context));
  if (!result.ok) {
    if (result.reason === "busy") {
      return data(
        { error: SIGN_IN_BUSY },
        { status: 503, headers: { "Retry-After": retryAfter(SIGN_IN_BUSY_RETRY_MS) } },
      );
    }
    if (result.reason === "throttled") {
      logEvent("warn", "sign-in-throttled", { requestId, address: clientAddress });
      return data(
        { error: SIGN_IN_THROTTLED },
        { status: 429, headers: { "Retry-After": SIGN_IN_RETRY_AFTER } },
      );
    }
    logEvent("warn", "sign-in-failed", { requestId, address: clientAddress });
    return data({ error: WRONG_PASSWORD }, { status: 401 });
  }
  logEvent("info", "sign-in", { requestId, address: clientAddress });
  const headers = new Headers();
  headers.append(
    "Set-Cookie",
    await sessionCookie(context).serialize(result.sessionId, { expires: result.expiresAt }),
  );
  // This browser is now known: other clients' failures will not refuse the owner here.
  if (result.newDevice) {
    headers.append("Set-Cookie", await deviceCookie(context).serialize(result.newDevice));
  }
  return redirect(redirectTo, { headers });
}

/** A document POST carries the action's headers (Retry-After on 429) only through this. */
export function headers({ actionHeaders }: Route.HeadersArgs) {
  return actionHeaders;
}

export function meta({ matches }: Route.MetaArgs) {
  const site = siteOf(matches);
  return pageMeta({
    site,
    siteUrl: matches[0].loaderData.siteUrl,
    path: "/login",
    title: `Sign in · ${site.name}`,
    description: "The owner's sign-in.",
    noindex: true,
  });
}

export default function Login({ loaderData, actionData }: Route.ComponentProps) {
  const submitting = useNavigation().state === "submitting";
  return (
    <div className="mx-auto max-w-sm py-16">
      <h1 className="text-3xl font-bold text-slate-900 dark:text-white">Sign in</h1>
      <Form method="post" className="mt-8 space-y-4">
        <input type="hidden" name="redirectTo" value={loaderData.redirectTo} />
        <div>
          <label
            htmlFor="password"
            className="block text-sm font-medium text-slate-800 dark:text-slate-200"
          >
            Password
          </label>
          <input
            id="password"
            name="password"
            type="password"
            autoComplete="current-password"
            required
            aria-invalid={actionData?.error ? true : undefined}
            aria-describedby={actionData?.error ? "password-error" : undefined}
            className="mt-1 block w-full rounded-lg border border-slate-300 bg-white px-3 py-2 text-slate-900 dark:border-slate-700 dark:bg-slate-900 dark:text-slate-100"
          />
          {actionData?.error ? (
            <p
              id="password-error"
              role="alert"
              className="mt-2 text-sm text-red-700 dark:text-red-400"
            >
              {actionData.error}
            </p>
          ) : null}
        </div>
        <button
          type="submit"
          disabled={submitting}
          className={buttonClass({ size: "lg", block: true })}
        >
          Sign in
        </button>
      </Form>
    </div>
  );
}
