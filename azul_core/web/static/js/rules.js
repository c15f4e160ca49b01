// "Rules of this variant" on the table page: what differs from the standard game, in a
// player's words (the server's /api/variants `words`, made from the rules the server loaded).
// Every sentence is set as text.
import { el } from "./dom.js";

let asked = null; // the variant whose rules were asked for

async function variantWords(name) {
  const response = await fetch("/api/variants", { headers: { Accept: "application/json" } });
  if (!response.ok) return null;
  const variants = await response.json();
  return Array.isArray(variants) ? variants.find((v) => v.name === name) || null : null;
}

/** Draw the box once per page, when the view names the variant. */
export function showRules(view) {
  if (!view?.variant || asked === view.variant) return;
  asked = view.variant;
  variantWords(view.variant).then((variant) => {
    if (!variant) return;
    const words = Array.isArray(variant.words) && variant.words.length ? variant.words : variant.rules || [];
    const box = el("details", { id: "rules-box", class: "rules-box panel" },
      el("summary", {}, "Rules of this variant"),
      variant.description ? el("p", { class: "description" }, String(variant.description)) : null,
      el("ul", { class: "rules-words", id: "rules-words" }, words.map((line) => el("li", {}, String(line)))));
    document.getElementById("rules-box")?.remove();
    document.querySelector("main").append(box);
  }).catch(() => {
    asked = null; // asked again with the next update
  });
}
