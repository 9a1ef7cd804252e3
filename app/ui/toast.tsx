import { CircleAlert, CircleCheck, X } from "lucide-react";
import { useEffect, useEffectEvent, useState } from "react";

import { TOAST_CLOSE_DELAY_MS, TOAST_DEFAULT_DURATION_MS } from "~/lib/constants";

export type ToastType = "success" | "error";

export const TOAST_TITLES: Record<ToastType, string> = { success: "¡Éxito!", error: "Error" };

export type ToastProps = {
  type: ToastType;
  message: string;
  isVisible: boolean;
  /** Called 300 ms after the toast starts hiding (by itself or by its close button). */
  onClose: () => void;
  /** How long the toast stays before hiding itself (ms). */
  duration?: number;
};

/** Top-right notice that slides in; its timing is in docs/product.md#states. */
export function Toast({
  type,
  message,
  isVisible,
  onClose,
  duration = TOAST_DEFAULT_DURATION_MS,
}: ToastProps) {
  const [closing, setClosing] = useState(false);
  const [wasVisible, setWasVisible] = useState(isVisible);
  if (isVisible !== wasVisible) {
    // Each time the toast is shown again it starts open.
    setWasVisible(isVisible);
    if (isVisible) setClosing(false);
  }
  const notifyClosed = useEffectEvent(onClose);

  useEffect(() => {
    if (!isVisible) return;
    const hideTimer = window.setTimeout(() => setClosing(true), duration);
    return () => window.clearTimeout(hideTimer);
  }, [isVisible, duration]);

  useEffect(() => {
    if (!closing) return;
    const closeTimer = window.setTimeout(() => notifyClosed(), TOAST_CLOSE_DELAY_MS);
    return () => window.clearTimeout(closeTimer);
  }, [closing]);

  if (!isVisible) return null;
  return (
    <ToastView
      type={type}
      message={message}
      shown={!closing}
      onCloseClick={() => setClosing(true)}
    />
  );
}

/**
 * The classes of a toast that is shown, and of one that is hiding (it slides out and fades, and
 * no longer takes clicks): also switched by the contact form's script (app/features/contact).
 */
export const TOAST_STATE_CLASS = {
  open: "animate-toast-in translate-x-0 opacity-100",
  closed: "pointer-events-none translate-x-[110%] opacity-0",
} as const;

export type ToastViewProps = {
  type: ToastType;
  message: string;
  /** Open, or hiding (`data-state="closed"`). */
  shown: boolean;
  onCloseClick?: () => void;
  /**
   * A copy kept in a `<template>` for a script to clone: no test id, so nothing finds it until
   * the script shows it (the script adds it).
   */
  prototype?: boolean;
};

/**
 * The toast's markup alone, without timers: the React toast above, and the markup a script
 * clones and times (`data-toast-message` holds the text, `data-toast-close` closes it).
 */
export function ToastView({ type, message, shown, onCloseClick, prototype }: ToastViewProps) {
  const Icon = type === "success" ? CircleCheck : CircleAlert;
  return (
    <div
      role={type === "error" ? "alert" : "status"}
      data-testid={prototype ? undefined : "toast"}
      data-state={shown ? "open" : "closed"}
      className={`fixed top-20 right-4 z-50 flex w-[min(24rem,calc(100vw-2rem))] items-start gap-3 rounded-lg border p-4 shadow-lg transition-all duration-300 ${
        shown ? TOAST_STATE_CLASS.open : TOAST_STATE_CLASS.closed
      } ${
        type === "success"
          ? "border-emerald-300 bg-emerald-50 text-emerald-950 dark:border-emerald-700 dark:bg-emerald-950 dark:text-emerald-50"
          : "border-red-300 bg-red-50 text-red-950 dark:border-red-700 dark:bg-red-950 dark:text-red-50"
      }`}
    >
      <Icon aria-hidden="true" className="mt-0.5 size-5 shrink-0" />
      <div className="min-w-0 flex-1">
        <p className="font-semibold">{TOAST_TITLES[type]}</p>
        <p className="text-sm break-words" data-toast-message="">
          {message}
        </p>
      </div>
      <button
        type="button"
        onClick={onCloseClick}
        data-toast-close=""
        aria-label="Close notification"
        className="-m-1 inline-flex size-8 items-center justify-center rounded-md hover:bg-black/10 dark:hover:bg-white/10"
      >
        <X aria-hidden="true" className="size-4" />
      </button>
    </div>
  );
}
