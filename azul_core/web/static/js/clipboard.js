// Copy a link: the Clipboard API where the page may use it (HTTPS or localhost), else the
// old selection trick; the input stays selected either way so it can be copied by hand.
export async function copyText(text, input) {
  input?.select();
  try {
    if (navigator.clipboard && window.isSecureContext) {
      await navigator.clipboard.writeText(text);
      return true;
    }
  } catch {
    // fall through to the selection
  }
  try {
    return document.execCommand("copy");
  } catch {
    return false;
  }
}
