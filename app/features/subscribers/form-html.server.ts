import { createElement } from "react";
import { renderToStaticMarkup } from "react-dom/server";

import { SubscribeForm } from "./subscribe-form";

let html: string | undefined;

/**
 * The subscription form as HTML for the home page, which shows it through its loader's data: the
 * form's component adds no JavaScript to any bundle: it is a plain form that posts without it.
 * The same bytes for every visitor, rendered once per process.
 */
export const subscribeFormHtml = () =>
  (html ??= renderToStaticMarkup(createElement(SubscribeForm)));
