import { data } from "react-router";

/** Any path no other route matches: a 404 rendered by the root error page. */
export function loader() {
  throw data(null, { status: 404, statusText: "Not Found" });
}

export default function NotFound() {
  return null;
}
