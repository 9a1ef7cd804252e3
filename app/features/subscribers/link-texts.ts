/** The confirmation and unsubscribe pages' states and texts (each page shows one). */
export type LinkState = "ready" | "done" | "expired" | "invalid";

export const LINK_TEXT = {
  confirm: {
    title: "Confirm your subscription",
    ready: "Press the button to get new posts by e-mail.",
    button: "Confirm",
    done: "You are subscribed. New posts will come to your inbox.",
    expired: "This confirmation link has expired. Subscribe again to get a new one.",
    invalid: "This confirmation link is not valid. Subscribe again to get a new one.",
  },
  unsubscribe: {
    title: "Unsubscribe",
    ready: "Press the button to stop getting new posts by e-mail.",
    button: "Unsubscribe",
    done: "You are unsubscribed. Nothing more will be sent to you.",
    expired: "This unsubscribe link is not valid.",
    invalid: "This unsubscribe link is not valid.",
  },
} as const satisfies Record<string, Record<LinkState | "title" | "button", string>>;
