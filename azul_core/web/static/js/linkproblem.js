// A link that does not open its table (a wrong or cut secret, a table put away): the page says so
// in the site's look, with a way home, instead of an empty table. (The server never sees a
// secret, which travels in the fragment, so it can't answer such a link with a 404 itself; an
// unknown table is answered with templates/not-found.html and a 404.)
import { el } from "./dom.js";

export function showLinkProblem() {
  const main = document.querySelector("main");
  if (!main || document.getElementById("link-problem")) return;
  // The message above says what the server answered (it may sit in the top notices, which
  // stay); the table's empty parts go.
  const message = document.getElementById("message");
  for (const child of main.children) if (!child.contains(message)) child.hidden = true;
  main.append(el("section", { id: "link-problem", class: "panel link-problem", "aria-labelledby": "link-problem-title" },
    el("h2", { id: "link-problem-title" }, "This link does not open a table"),
    el("p", {}, "Check that the whole link was copied (the part after # is the secret that opens your seat), "
      + "or ask whoever set up the table for your link again."),
    el("p", {}, el("a", { class: "button primary", href: "/" }, "Set up a table"))));
  document.title = "Azul: this link does not open a table";
}
