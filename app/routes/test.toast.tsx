import { useState } from "react";

import { Toast, type ToastType } from "~/ui/toast";

import type { Route } from "./+types/test.toast";

export function loader({ request }: Route.LoaderArgs) {
  const duration = new URL(request.url).searchParams.get("duration");
  return { duration: duration ? Number(duration) : undefined };
}

export function meta() {
  return [{ title: "Toast test" }, { name: "robots", content: "noindex" }];
}

declare global {
  interface Window {
    __toastEvents?: { event: string; at: number }[];
  }
}

/** Drives the toast for the end-to-end tests, recording when it shows and closes. */
export default function ToastTest({ loaderData }: Route.ComponentProps) {
  const [toast, setToast] = useState<{ type: ToastType; visible: boolean }>({
    type: "success",
    visible: false,
  });
  const record = (event: string) => {
    window.__toastEvents ??= [];
    window.__toastEvents.push({ event, at: performance.now() });
  };
  const show = (type: ToastType) => {
    record(`show-${type}`);
    setToast({ type, visible: true });
  };
  return (
    <div className="space-x-4 py-12">
      <button type="button" className="rounded border px-3 py-2" onClick={() => show("success")}>
        Show success
      </button>
      <button type="button" className="rounded border px-3 py-2" onClick={() => show("error")}>
        Show error
      </button>
      <Toast
        type={toast.type}
        message={toast.type === "success" ? "Test success message" : "Test error message"}
        isVisible={toast.visible}
        duration={loaderData.duration}
        onClose={() => {
          record("close");
          setToast((t) => ({ ...t, visible: false }));
        }}
      />
    </div>
  );
}
