// a labelled one-line text box, a control for live() (js/common.js): every keystroke is an input event;
// shared by the explorers the reader types into (lesson 1's vocabulary, lesson 2's tokens)
function textBox(parent, { name, label, value, longest }) {
  const box = document.createElement("div");
  box.className = "course-explorer-control";
  box.style.maxWidth = "46em";
  box.style.flexBasis = "100%";
  const input = document.createElement("input");
  input.type = "text";
  input.name = name;
  input.id = `${name}-${Math.random().toString(36).slice(2)}`;
  input.spellcheck = false;
  if (longest) input.maxLength = longest; // the text's bound (BOUNDS): no longer text is typed or pasted
  input.setAttribute("aria-label", label);
  const text = document.createElement("label");
  text.htmlFor = input.id;
  text.textContent = label;
  box.append(text, input);
  parent.append(box);
  const show = (v) => {
    if (input.value !== v) input.value = v;
  };
  show(value);
  return { input, show, read: () => input.value };
}
