// Controls that choose among named options (course_lib/widgets/live.py puts this file after
// common.js for the explorers that need them), with the interface of common.js's slider:
// `input` (where the input events come from), `show(value)` and `read()`, so live() drives them.

// A labelled group of radio buttons: Tab reaches the group, the arrow keys move the choice
export function radios(parent, { name, label, options, value }) {
  const box = document.createElement("div");
  box.className = "course-explorer-control course-explorer-choice";
  box.setAttribute("role", "radiogroup");
  box.setAttribute("aria-label", label);
  box.dataset.name = name;
  box.style.flexWrap = "wrap"; // long captions go to the next line, not off a narrow screen
  const text = document.createElement("span");
  text.textContent = label;
  box.append(text);
  const group = `${name}-${Math.random().toString(36).slice(2)}`;
  const inputs = options.map(([v, caption]) => {
    const item = document.createElement("label");
    item.className = "course-explorer-option"; // 24 px tall at least (common.js)
    const input = document.createElement("input");
    input.type = "radio";
    input.name = group;
    input.value = v;
    input.dataset.control = name;
    // not the width common.js gives a slider
    input.style.flex = "none";
    input.style.minWidth = "0";
    item.append(input, " ", caption);
    box.append(item);
    return input;
  });
  parent.append(box);
  const show = (v) => {
    for (const input of inputs) input.checked = input.value === v;
  };
  show(value);
  return { input: box, show, read: () => inputs.find((i) => i.checked).value };
}

// A labelled drop-down list; `options` are [value, caption] with integer values
export function dropdown(parent, { name, label, options, value }) {
  const box = document.createElement("div");
  box.className = "course-explorer-control course-explorer-choice";
  const select = document.createElement("select");
  select.id = `${name}-${Math.random().toString(36).slice(2)}`;
  select.name = name;
  select.setAttribute("aria-label", label);
  select.style.minWidth = "0";
  select.style.maxWidth = "100%";
  for (const [v, caption] of options) {
    const option = document.createElement("option");
    option.value = String(v);
    option.textContent = caption;
    select.append(option);
  }
  const text = document.createElement("label");
  text.htmlFor = select.id;
  text.textContent = label;
  box.append(text, select);
  parent.append(box);
  const show = (v) => {
    select.value = String(v);
  };
  show(value);
  return { input: select, show, read: () => Number(select.value) };
}
