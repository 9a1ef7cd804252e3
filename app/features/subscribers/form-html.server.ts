import { createElement } from "react";
import { renderToStaticMarkup } from "react-dom/server";

import { SubscribeForm } from "./subscribe-form";

let html: string | undefined;

/**
 * The subscription form as HTML, for a page that hydrates (the home page): it shows the form
 * through its loader's data, so the form's component adds no JavaScript to that page's bundle.
 * The same bytes for every visitor, rendered once per process.
 */
export const subscribeFormHtml = () =>
  (html ??= renderToStaticMarkup(createElement(SubscribeForm)));
