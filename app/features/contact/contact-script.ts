/**
 * The contact form's behaviour in the browser, one implementation for both ways the home page
 * arrives: a document (the page does not hydrate; the site script, app/features/site/site-script.ts,
 * inlines this function's source and calls it) and a client-side navigation from a page that
 * hydrated (./contact-section.tsx calls it once the form is in the document).
 *
 * The checks in the product's order (`checkContact`, ./message.ts, the server's own), then a
 * `fetch` to /api/contact; while sending, the button is disabled with its spinner and
 * `Enviando...`; success clears the fields, failure keeps them; each outcome is a toast, cloned
 * from the server's markup, that hides after `toastMs` and leaves `closeMs` later. A toast the
 * server rendered (the answer to a post made without JavaScript) is timed the same way.
 *
 * Inlined as its own source: it may use nothing but its parameters and the DOM.
 */
import { CONTACT_TOAST_DURATION_MS, TOAST_CLOSE_DELAY_MS } from "~/lib/constants";
import { TOAST_STATE_CLASS } from "~/ui/toast";

import { CONTACT_HONEYPOT, CONTACT_RULES, CONTACT_TEXT, type checkContact } from "./message";

export type ContactScriptConfig = {
  rules: typeof CONTACT_RULES;
  honeypot: string;
  endpoint: string;
  failed: string;
  toastMs: number;
  closeMs: number;
  stateClass: typeof TOAST_STATE_CLASS;
};

export const CONTACT_SCRIPT_CONFIG: ContactScriptConfig = {
  rules: CONTACT_RULES,
  honeypot: CONTACT_HONEYPOT,
  endpoint: "/api/contact",
  failed: CONTACT_TEXT.failed,
  toastMs: CONTACT_TOAST_DURATION_MS,
  closeMs: TOAST_CLOSE_DELAY_MS,
  stateClass: TOAST_STATE_CLASS,
};

/** Gives the form (`[data-contact-form]`, inside `[data-contact]`) its behaviour; once per form. */
export function attachContactForm(
  form: HTMLFormElement,
  config: ContactScriptConfig,
  check: typeof checkContact,
) {
  if (form.dataset.contactAttached) return;
  form.dataset.contactAttached = "true";
  const section = form.closest<HTMLElement>("[data-contact]") ?? form;
  const region = section.querySelector<HTMLElement>("[data-toast-region]");
  const button = form.querySelector<HTMLButtonElement>('button[type="submit"]');
  const labels = (sending: boolean) => {
    if (!button) return;
    button.disabled = sending;
    for (const label of button.querySelectorAll<HTMLElement>("[data-send-label]")) {
      label.hidden = (label.dataset.sendLabel === "sending") !== sending;
    }
  };
  const classes = (element: HTMLElement, open: boolean) => {
    const [add, remove] = open
      ? [config.stateClass.open, config.stateClass.closed]
      : [config.stateClass.closed, config.stateClass.open];
    element.classList.remove(...remove.split(" "));
    element.classList.add(...add.split(" "));
    element.dataset.state = open ? "open" : "closed";
  };

  // A shown toast hides after toastMs (or at its close button), then leaves closeMs later.
  let current: { element: HTMLElement; timer: number } | null = null;
  const close = (element: HTMLElement) => {
    if (element.dataset.state === "closed") return;
    classes(element, false);
    window.setTimeout(() => element.remove(), config.closeMs);
  };
  const time = (element: HTMLElement) => {
    if (current) {
      window.clearTimeout(current.timer);
      current.element.remove();
    }
    const timer = window.setTimeout(() => close(element), config.toastMs);
    current = { element, timer };
    element.querySelector("[data-toast-close]")?.addEventListener("click", () => {
      window.clearTimeout(timer);
      close(element);
    });
  };
  const show = (ok: boolean, message: string) => {
    const template = section.querySelector<HTMLTemplateElement>(
      `template[data-toast-template="${ok ? "success" : "error"}"]`,
    );
    // A template the parser filled keeps its markup in `content`; one React built, as children.
    const prototype = template?.content.firstElementChild ?? template?.firstElementChild;
    if (!region || !prototype) return;
    const toast = prototype.cloneNode(true) as HTMLElement;
    toast.dataset.testid = "toast";
    const text = toast.querySelector("[data-toast-message]");
    if (text) text.textContent = message;
    region.append(toast);
    time(toast);
  };
  for (const shown of region?.querySelectorAll<HTMLElement>('[data-state="open"]') ?? []) {
    time(shown);
  }

  const field = (name: string) =>
    form.elements.namedItem(name) as HTMLInputElement | HTMLTextAreaElement | null;
  form.addEventListener("submit", async (event) => {
    event.preventDefault();
    const input: Record<string, string> = {};
    for (const name of config.rules.fields) input[name] = field(name)?.value ?? "";
    const problem = check(input as Parameters<typeof check>[0], config.rules);
    if (problem) return show(false, problem);
    labels(true);
    const body = new URLSearchParams(input);
    const honeypot = field(config.honeypot)?.value;
    if (honeypot) body.set(config.honeypot, honeypot);
    let outcome: { ok: boolean; message: string };
    try {
      const response = await fetch(config.endpoint, { method: "POST", body });
      const result = (await response.json().catch(() => null)) as typeof outcome | null;
      if (!response.ok || !result?.ok)
        throw new Error(result?.message ?? `HTTP ${response.status}`);
      outcome = result;
      for (const name of config.rules.fields) {
        const control = field(name);
        if (control) control.value = "";
      }
    } catch (error) {
      console.error("Error sending the contact message:", error);
      outcome = { ok: false, message: config.failed };
    }
    show(outcome.ok, outcome.message);
    labels(false);
  });
}
