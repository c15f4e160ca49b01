// The words of the table page that name the board's colours and lines: the help under the move
// box says the variant's letters and its number of lines ("B Y R K W O", "line 1-6"). The page's
// own text is the standard game's; it is changed only where the variant's board differs.
import { COLOURS, LETTER, floorLine } from "./dom.js";

const STANDARD_LETTERS = "(B Y R K W)";
const STANDARD_LINES = "line 1-5 ";
let written = null;
let original = null;

/** Say the variant's letters and lines in the move box's help (learnt by setColours first). */
export function describeBoard() {
  const help = document.getElementById("move-help");
  if (!help) return;
  const letters = `(${COLOURS.map((name) => LETTER[name]).join(" ")})`;
  const lines = `line 1-${floorLine()} `;
  if (`${letters}${lines}` === written) return;
  written = `${letters}${lines}`;
  original ??= help.textContent;
  help.textContent = original.replace(STANDARD_LETTERS, letters).replace(STANDARD_LINES, lines);
}
