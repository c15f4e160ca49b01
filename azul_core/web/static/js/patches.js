// The changes of an "update" message (azul_core/web/patches.py, docs/serve.md): each sets a value
// at a path of keys and indexes, or appends items to the list there. An empty path is the whole
// document. A change that does not fit throws: the caller then asks for the whole state.

export function applyChanges(document, changes) {
  if (!Array.isArray(changes)) throw new Error("changes must be a list");
  let root = document;
  for (const change of changes) {
    const path = change?.path;
    if (!Array.isArray(path)) throw new Error("a change without a path");
    if (path.length === 0) {
      if ("set" in change) root = change.set;
      else if (Array.isArray(root) && Array.isArray(change.append)) root.push(...change.append);
      else throw new Error("the change does not fit");
      continue;
    }
    let parent = root;
    for (const step of path.slice(0, -1)) {
      parent = own(parent, step);
    }
    const last = path[path.length - 1];
    if (parent === null || typeof parent !== "object" || !isSafeKey(last)) throw new Error("the change does not fit");
    if ("set" in change) {
      parent[last] = change.set;
    } else if (Array.isArray(change.append) && Array.isArray(parent[last])) {
      parent[last].push(...change.append);
    } else {
      throw new Error("the change does not fit");
    }
  }
  return root;
}

// Only the document's own members are followed: a path never reaches an object's prototype.
function own(value, step) {
  if (value === null || typeof value !== "object" || !isSafeKey(step) || !Object.hasOwn(value, step)) {
    throw new Error("the change does not fit");
  }
  return value[step];
}

function isSafeKey(step) {
  return (typeof step === "number" && Number.isInteger(step) && step >= 0)
    || (typeof step === "string" && step !== "__proto__" && step !== "constructor" && step !== "prototype");
}
