// Lesson 2's tokenizer comparator: the typed text's tokens and ids for each tokenizer side by side, the
// tokens each spends per word and against the same text in English, and a click on a token of the
// course's BPE unfolding the merges that built it. The course's BPE is js/bpe.js on the merges Python
// sends (data); GPT-2, cl100k_base and o200k_base are npm gpt-tokenizer's own encoders, which a page
// loads once as a classic script (course_lib/widgets/encodings.py): from the folder beside the widget
// renderer on the site and in the decks, or from the kernel in JupyterLab (a custom message).

// the encodings already loaded, or being loaded, in this page: name -> Promise of the API or null
const LOADING = new Map();

// the folder of the page's vendor scripts: the site's _static/ and a deck's assets/ hold the widget
// renderer (html-manager/embed-amd.js) and tokenizers/ side by side
function vendorFolder() {
  // (the site adds ?v=<hash> to the address)
  const renderer = [...document.querySelectorAll("script[src]")].find((s) => new URL(s.src).pathname.endsWith("/html-manager/embed-amd.js"));
  return renderer ? new URL("../tokenizers/", renderer.src) : null;
}

function scriptTag(url) {
  return new Promise((resolve) => {
    const tag = document.createElement("script");
    tag.src = url;
    tag.onload = () => resolve(true);
    tag.onerror = () => resolve(false);
    document.head.append(tag);
  });
}

// ask the kernel for the script (TokenizerComparator._send_encoding); null if it does not answer in time
function fromKernel(model, name, waitMs) {
  return new Promise((resolve) => {
    if (typeof model.send !== "function" || typeof model.on !== "function") return resolve({ noKernel: true });
    const timer = setTimeout(() => resolve({ noKernel: true }), waitMs);
    const answer = (content) => {
      if (!content || content.encoding !== name) return;
      clearTimeout(timer);
      model.off("msg:custom", answer);
      if (typeof content.script === "string") {
        new Function(content.script)(); // sets globalThis.courseTokenizers[name]
        resolve({});
      } else resolve({ missing: true });
    };
    model.on("msg:custom", answer);
    try {
      model.send({ want: name });
    } catch {
      clearTimeout(timer);
      resolve({ noKernel: true });
    }
  });
}

// gpt-tokenizer's encoding `name`: {api} or {error: "unavailable" | "no_kernel_data"}
export function loadEncoding(model, name, waitMs = 30000) {
  const loaded = () => (globalThis.courseTokenizers || {})[name];
  if (loaded()) return Promise.resolve({ api: loaded() });
  if (!LOADING.has(name)) {
    LOADING.set(
      name,
      (async () => {
        const folder = vendorFolder();
        if (folder && (await scriptTag(new URL(`${name}.js`, folder).href)) && loaded()) return { api: loaded() };
        const reply = await fromKernel(model, name, waitMs);
        if (loaded()) return { api: loaded() };
        LOADING.delete(name); // a kernel started later may answer
        return { error: reply.noKernel ? "no_kernel_data" : "unavailable" };
      })(),
    );
  }
  return LOADING.get(name);
}

// gpt-tokenizer 4.0.0 looks the bytes of a would-be merge up as text when they are valid UTF-8, else among its
// byte tokens. Its lookup is replaced by one that does the same but for two things:
// - the bytes are decoded here, in JavaScript (utf8Text), where it calls a TextDecoder for each pair it tries:
//   with those calls, the three encoders took 1.2 times as long on a paste of 1 000 new characters on an idle
//   machine, 3 times as long on a busy one (measured in Chromium, its merge caches emptied);
// - its TextDecoder drops a leading byte order mark: the bytes EF BB BF (U+FEFF, a token of cl100k and o200k,
//   which its table keeps as bytes) were looked up as "" and never merged, so "joiner\ufeff" got two tokens
//   where tiktoken gives one (tests/browser/test_explorers_comparator.py found it). Bytes that begin with the
//   mark are looked up among its byte tokens, then as text with the mark kept.
function lookUpBytes(api) {
  const core = api.bytePairEncodingCoreProcessor;
  if (core.courseLookUp) return;
  core.getBpeRankFromBytes = (key) => {
    const text = utf8Text(key);
    const mark = key[0] === 0xef && key[1] === 0xbb && key[2] === 0xbf;
    if (text !== undefined && !mark) return core.getBpeRankFromString(text);
    const index = core.binarySearch(key);
    if (index !== -1) return core.bytePairNonUtfSortedEncoder[index][1];
    return text === undefined ? undefined : core.getBpeRankFromString(text);
  };
  core.courseLookUp = true;
}

// the text of the UTF-8 bytes `key` (a Uint8Array), or undefined where they are not whole characters: the same
// bytes as gpt-tokenizer's isValidUTF8 takes (no overlong forms, no surrogates, nothing past U+10FFFF)
export function utf8Text(key) {
  let text = "";
  for (let i = 0; i < key.length; ) {
    const b = key[i];
    const n = b < 0x80 ? 1 : b >= 0xc2 && b < 0xe0 ? 2 : b >= 0xe0 && b < 0xf0 ? 3 : b >= 0xf0 && b < 0xf5 ? 4 : 0;
    if (n === 0 || i + n > key.length) return undefined;
    let code = n === 1 ? b : b & (0xff >> (n + 1));
    for (let j = 1; j < n; j++) {
      if ((key[i + j] & 0xc0) !== 0x80) return undefined;
      code = (code << 6) | (key[i + j] & 0x3f);
    }
    if ((n === 3 && (code < 0x800 || (code >= 0xd800 && code <= 0xdfff))) || (n === 4 && (code < 0x10000 || code > 0x10ffff))) return undefined;
    text += String.fromCodePoint(code);
    i += n;
  }
  return text;
}

// White space as tiktoken's patterns mean it (Rust's \s, Unicode's White_Space: U+0085 in, U+FEFF out), where
// gpt-tokenizer's JavaScript \s has U+FEFF and not U+0085: "x \ufeff" was cut " " + "\ufeff" by GPT-2's
// pattern, where tiktoken cuts "x", " \ufeff". Each \s, \S and [^\s\p{L}\p{N}] of the pattern is rewritten.
export function tiktokenSpaces(source) {
  const SPACE = "\u0000"; // a placeholder for \s that no pattern holds
  return source
    .replaceAll(String.raw`[^\s\p{L}\p{N}]`, String.raw`(?:[^${SPACE}\x85\p{L}\p{N}]|\ufeff)`)
    .replaceAll(String.raw`\S`, String.raw`(?:[^${SPACE}\x85]|\ufeff)`)
    .replaceAll(String.raw`\s`, String.raw`(?:(?!\ufeff)[${SPACE}\x85])`)
    .replaceAll(SPACE, String.raw`\s`);
}

function withTiktokenSpaces(api) {
  const core = api.bytePairEncodingCoreProcessor;
  if (core.courseSpaces) return;
  core.tokenSplitRegex = new RegExp(tiktokenSpaces(core.tokenSplitRegex.source), core.tokenSplitRegex.flags);
  core.clearMergeCache?.();
  core.courseSpaces = true;
}

// how `api` encodes typed text: every special token's name is text (disallowed_special=() in tiktoken)
export function encodeWith(api) {
  lookUpBytes(api);
  withTiktokenSpaces(api);
  const options = { allowedSpecial: new Set(), disallowedSpecial: new Set() };
  return (text) => api.encode(text, options);
}

// a token's bytes in gpt-tokenizer's encoding: its table holds each token as text where its bytes are
// whole UTF-8 characters, else as the bytes themselves (BytePairEncodingCore.tryDecodeToken)
export function realBytes(api, cache, id) {
  if (!cache.has(id)) {
    const found = api.bytePairEncodingCoreProcessor.tryDecodeToken(id);
    cache.set(id, typeof found === "string" ? [...UTF8.encode(found)] : [...found]);
  }
  return cache.get(id);
}

// the merges that built the course's token `id`: [token, id, parts], a byte's parts empty
// (TokenizerComparator.merge_tree)
export function mergeTree(data, bytes, id, madeBy) {
  const parts = madeBy.get(id);
  return [idToToken(data, bytes, id), id, parts ? parts.map((p) => mergeTree(data, bytes, p, madeBy)) : []];
}

const VISIBLE = { "\n": "↵", "\r": "␍", "\t": "⇥", " ": "·" };
const shown = (text) => text.replace(/[\n\r\t ]/g, (c) => VISIBLE[c]);

function treeList(node, data, bytes, labels) {
  const [token, id, parts] = node;
  const item = document.createElement("li");
  item.dataset.id = String(id);
  item.dataset.token = token;
  if (parts.length) {
    item.textContent = fill(labels.merge, { token: `«${shown(token)}»`, id });
    const list = document.createElement("ul");
    for (const part of parts) list.append(treeList(part, data, bytes, labels));
    item.append(list);
  } else {
    const hex = bytes[id].map((b) => `0x${b.toString(16).padStart(2, "0")}`).join(" ");
    item.textContent = fill(labels.byte, { token: `«${shown(token)}»`, id, hex });
  }
  return item;
}

// A row `r` shows its tokens as boxes, each a token with its id under it (a dashed box where the token is part of
// a character): its view holds the boxes of its first `built` ids (r.ids), in order.

// keep(r, ids, gone) makes `ids` the row's and keeps the boxes of the ids both begin with: a key typed at the end
// of a long text makes a few boxes, not all of them. Where it keeps none (a paste), the old boxes are hidden at
// once, their view swapped for an empty one, and removed by the first slice (slices, prune): taking 2 000 boxes
// out of the page costs the browser a few ms, hiding their view (content-visibility: hidden, which also hides it
// from screen readers) almost nothing.
function keep(r, ids, gone) {
  let same = 0;
  while (same < r.built && ids[same] === r.ids[same]) same++;
  if (same === 0 && r.built > 0) {
    const fresh = r.view.cloneNode(false);
    r.view.classList.add("course-comparator-gone"); // (its other class kept: a new display would rebuild its layout)
    r.view.setAttribute("aria-hidden", "true");
    r.view.before(fresh);
    gone.push(r.view);
    r.view = fresh;
  } else while (r.view.children.length > same) r.view.lastChild.remove();
  r.ids = ids;
  r.built = same;
}

// grow(r, upTo, colour, pressed) builds the row's next boxes, up to its upTo-th; `colour(n)` is the class of the
// n-th box's colour, `pressed` the id of the course's token whose merges are shown (null: none). A clickable box
// is a toggle button from the start (aria-pressed false), as showTree leaves every box once a token is deselected
function grow(r, upTo, colour, pressed) {
  const end = Math.min(upTo, r.ids.length);
  if (end <= r.built) return;
  const clickable = r.clickable;
  const out = document.createDocumentFragment();
  for (let n = r.built; n < end; n++) {
    const id = r.ids[n];
    const [text, whole_] = r.labelOf(id); // memoized: [what the box shows, whether the bytes are whole characters]
    const box = document.createElement(clickable ? "button" : "span");
    if (clickable) box.type = "button";
    if (clickable) box.setAttribute("aria-pressed", String(id === pressed));
    box.className = `course-comparator-token${colour(n)}${whole_ ? "" : " course-comparator-cut"}`;
    box.dataset.id = String(id);
    const bottom = document.createElement("small");
    bottom.textContent = String(id);
    box.append(text, bottom);
    out.append(box);
  }
  r.view.append(out);
  r.built = end;
}

// A paste of 1 000 characters makes some 2 000 boxes, which the browser takes longer than a frame (16.7 ms at
// 60 Hz) to lay out: after the first ones, drawn with the input, they come in slices, one an animation frame.
// - missing() is how many boxes are still to build, build(n) builds the next n, layout() lays them out now
//   (which the frame would do at once after anyway), prune() removes the boxes an input hid (keep);
// - start() asks for the first slice in the frame after the one that paints the input (a callback asked for
//   during an input runs before that frame's painting: a slice there would make the input's frame longer), and
//   each slice for another until no box is missing; start() again (a new input) drops the slice still to come,
//   stop() too (the explorer closed);
// - a slice builds as many boxes as fit BUDGET_MS, the rest of the frame left to the browser (painting), at
//   what each took in the slice before, built and laid out: the layout is most of a box's cost, and it varies
//   with the machine and the page; a clock too coarse to see a slice (0 ms) counts MIN_MS_PER_BOX a box, so
//   no slice builds more than BUDGET_MS / MIN_MS_PER_BOX boxes;
// - busy(true) while boxes are missing (the rows' aria-busy: their text is not all there yet).
const BUDGET_MS = 8;
const MIN_MS_PER_BOX = 0.01;
function slices({ missing, build, layout, prune, busy }) {
  let frame = 0;
  let msPerBox = 0.05; // a guess, until a slice has measured it
  const slice = () => {
    prune();
    const n = Math.min(missing(), Math.max(1, Math.floor(BUDGET_MS / msPerBox)));
    if (n > 0) {
      const begin = performance.now();
      build(n);
      layout();
      msPerBox = Math.max(MIN_MS_PER_BOX, (performance.now() - begin) / n);
    }
    busy(missing() > 0);
    if (missing() > 0) frame = requestAnimationFrame(slice);
  };
  const stop = () => cancelAnimationFrame(frame);
  const start = () => {
    stop();
    busy(missing() > 0);
    // the input's frame paints what the input drew; the slices begin in the frame after it
    frame = requestAnimationFrame(() => {
      frame = requestAnimationFrame(slice);
    });
  };
  return { start, stop };
}

// the palette as classes, a rule each, all boxes of a colour sharing their style (a style of each box's own
// costs the browser a style computed per box); each colour is a custom property of the explorer's element, set
// through the CSS object model: a saved palette is input, and a value that is no colour paints nothing
function paletteClasses(el, palette) {
  const colours = Array.isArray(palette) ? palette : [];
  colours.forEach((colour, k) => el.style.setProperty(`--course-comparator-c${k}`, String(colour)));
  const css = colours.map((_, k) => `.tokenizer-comparator .course-comparator-c${k} { background-color: var(--course-comparator-c${k}); }`);
  const names = colours.map((_, k) => ` course-comparator-c${k}`);
  return { css: css.join("\n"), of: (n) => (names.length ? names[n % names.length] : "") };
}

// a bounded memo: the oldest entry dropped past `size`
function memo(size, compute) {
  const cache = new Map();
  return (key) => {
    let value = cache.get(key);
    if (value === undefined) {
      value = compute(key);
      if (cache.size >= size) cache.delete(cache.keys().next().value);
      cache.set(key, value);
    }
    return value;
  };
}

// no setting bounded by another
const RULES = {};

async function render({ model: saved, el }) {
  const model = guard(saved, el, BOUNDS, RULES);
  const numbers = model.get("numbers");
  const labels = model.get("labels");
  const data = model.get("data");
  const bytes = tokenBytes(data);
  const madeBy = new Map(data.merges.map(([a, b, made]) => [made, [a, b]]));
  const largest = Math.max(...data.merges.map(([, , made]) => made), ...data.byte_ids) + 1;
  const course = encoder(data, largest);
  const encodings = Array.isArray(data.encodings) ? data.encodings.filter((n) => typeof n === "string") : [];
  const { controls, canvas, readout: line } = frame(el, model.get("lang"), "tokenizer-comparator");
  canvas.hidden = true;
  const palette = paletteClasses(el, data.palette);
  const style = document.createElement("style");
  style.textContent = `${palette.css}
.tokenizer-comparator .course-comparator-row { margin: 0.5em 0; }
.tokenizer-comparator .course-comparator-head { font-weight: 600; margin: 0.2em 0; }
/* a row's boxes are laid out apart from the page's (layout containment): as a paste's boxes arrive frame by frame
   (slices), the rows under the growing one move, and the browser moves their boxes as they are painted instead
   of painting them again (about half the painting of a paste, measured in Chromium) */
.tokenizer-comparator .course-comparator-tokens { display: flex; flex-wrap: wrap; gap: 2px; contain: layout; }
/* a box is a block, its id a block under the token: a quarter cheaper to lay out than a column of flex items */
.tokenizer-comparator .course-comparator-token { display: inline-block; text-align: center; color: #000;
  border: 1px solid transparent; padding: 0 2px; font: inherit; line-height: 1.2; min-height: 24px; white-space: pre; margin: 0; }
/* a token one can click is a target of at least 24 x 24 px (WCAG 2.2, 2.5.8) */
.tokenizer-comparator button.course-comparator-token { min-width: 24px; }
.tokenizer-comparator button.course-comparator-token { cursor: pointer; }
.tokenizer-comparator .course-comparator-token.course-comparator-cut { border: 1px dashed #666; }
.tokenizer-comparator button.course-comparator-token[aria-pressed=true] { outline: 2px solid #000; }
.tokenizer-comparator .course-comparator-token small { display: block; font-size: 0.7em; color: #333; }
.tokenizer-comparator .course-explorer-note { font-size: 0.85em; margin: 0.2em 0; }
.tokenizer-comparator .course-comparator-tree ul { margin: 0; padding-left: 1.4em; }
/* the boxes an input hid, until the next frame removes them (keep); a browser without content-visibility
   (Firefox before 125, Safari before 18) shows them beside the new ones for that one frame */
.tokenizer-comparator .course-comparator-gone { content-visibility: hidden; }
/* on a slide (reveal.js, 700 px tall) the rows scroll within a third of the screen, the merges within a sixth */
.reveal .tokenizer-comparator .course-comparator-rows { max-height: 240px; overflow-y: auto; }
.reveal .tokenizer-comparator .course-comparator-tree { max-height: 110px; overflow-y: auto; }`;
  el.append(style);
  const hint = document.createElement("p");
  hint.className = "course-explorer-note";
  hint.textContent = labels.hint;
  const rows = document.createElement("div");
  rows.className = "course-comparator-rows";
  const note = document.createElement("p");
  note.className = "course-explorer-note";
  const tree = document.createElement("div");
  tree.className = "course-comparator-tree";
  tree.setAttribute("aria-live", "polite");
  line.after(hint, rows, note, tree);
  await courseFont(el);

  // a row per tokenizer: its head line and its boxes; the course's first
  const names = ["course", ...encodings];
  const row = {};
  for (const name of names) {
    const line = document.createElement("div");
    line.className = "course-comparator-row";
    line.dataset.tokenizer = name;
    const head = document.createElement("p");
    head.className = "course-comparator-head";
    const view = document.createElement("div");
    view.className = "course-comparator-tokens";
    line.append(head, view);
    rows.append(line);
    const real = name !== "course";
    row[name] = { line, head, view, encode: real ? null : course, status: real ? "loading" : null, cache: new Map(), ids: [], built: 0, clickable: !real };
  }
  let selected = null; // the course's token whose merges are shown

  // what a box shows for a token: [its text, whether its bytes are whole characters], computed once per token
  const LABELS = 1 << 16;
  const boxLabel = (b) => {
    const text = whole(b);
    return [shown(text ?? readable(b)), text !== null];
  };
  row.course.labelOf = memo(LABELS, (id) => boxLabel(bytes[id]));
  // the boxes come top to bottom: the rows' tops are what the page shows first
  const gone = []; // the views of boxes an input hid (keep)
  const paint = slices({
    missing: () => names.reduce((sum, name) => sum + row[name].ids.length - row[name].built, 0),
    build: (n) => {
      for (const name of names) {
        const r = row[name];
        const k = Math.min(n, r.ids.length - r.built);
        grow(r, r.built + k, palette.of, selected);
        n -= k;
      }
    },
    layout: () => void rows.offsetHeight,
    prune: () => {
      for (const view of gone.splice(0)) view.remove();
    },
    busy: (busy) => (busy ? rows.setAttribute("aria-busy", "true") : rows.removeAttribute("aria-busy")),
  });
  // the frame an input is drawn in: the readout, every row's head and FIRST more boxes (a paste's first ones, a
  // key's changed ones), the rest in the frames after (slices). FIRST is the start of a line: a box costs the
  // browser some 15-30 us to lay out, and a paste's frame also encodes the text four times (2-6 ms where no
  // piece of it was seen before)
  const FIRST = 16;
  const draw = () => {
    const text = model.get("text");
    const english = model.get("english");
    const nWords = countWords(text);
    // the clicked token's heading joins the readout, which is read aloud on change
    const heading = selected === null ? "" : ` ${fill(labels.tree, { token: shown(idToToken(data, bytes, selected)), id: selected })}`;
    line.textContent = fill(labels.readout, { n_words: nWords, n_chars: [...text].length, n_english: countWords(english) }) + heading;
    let cut = false;
    for (const name of names) {
      const r = row[name];
      const label = (data.names && data.names[name]) || name;
      if (!r.encode) {
        r.head.textContent = `${label}: ${labels[r.status] ?? r.status}`;
        keep(r, [], gone);
        continue;
      }
      const ids = r.encode(text);
      if (r.english !== english) [r.english, r.nEnglish] = [english, r.encode(english).length];
      const nEnglish = r.nEnglish;
      r.head.textContent = fill(labels.row, {
        name: label,
        n_tokens: ids.length,
        per_word: nWords ? formatNumber(ids.length / nWords, ".2f", numbers) : "–",
        ratio: nEnglish ? formatNumber(ids.length / nEnglish, ".2f", numbers) : "–",
      });
      r.labelOf ||= memo(LABELS, (id) => boxLabel(realBytes(r.api, r.cache, id)));
      for (const id of ids) cut ||= !r.labelOf(id)[1];
      keep(r, ids, gone);
    }
    note.textContent = cut ? labels.cut : "";
    for (const name of names) grow(row[name], row[name].built + FIRST, palette.of, selected);
    paint.start();
  };
  // a click on a token shows its merges; a click on the token shown hides them
  const showTree = (clicked) => {
    const id = clicked === selected ? null : clicked;
    selected = id;
    if (id === null) {
      for (const b of rows.querySelectorAll("[data-tokenizer=course] button")) b.setAttribute("aria-pressed", "false");
      tree.replaceChildren();
      draw();
      return;
    }
    for (const b of rows.querySelectorAll("[data-tokenizer=course] button")) b.setAttribute("aria-pressed", String(b.dataset.id === String(id)));
    const root = mergeTree(data, bytes, id, madeBy);
    const heading = document.createElement("p");
    heading.textContent = fill(labels.tree, { token: shown(root[0]), id });
    const list = document.createElement("ul");
    list.append(treeList(root, data, bytes, labels));
    tree.replaceChildren(heading, list);
    draw();
  };
  row.course.line.addEventListener("click", (event) => {
    const target = event.target.closest("button.course-comparator-token");
    if (target) showTree(Number(target.dataset.id));
  });
  const inputs = {
    text: textBox(controls, { name: "text", label: labels.text, value: model.get("text"), longest: BOUNDS.text.longest }),
    english: textBox(controls, { name: "english", label: labels.english, value: model.get("english"), longest: BOUNDS.english.longest }),
  };
  const stopLive = live(model, draw, inputs);
  let closed = false; // the widget's view removed: an encoder arriving later draws nothing (no frames asked for)
  // the real tokenizers, as each arrives: the page is live with the course's BPE meanwhile
  for (const name of encodings) {
    loadEncoding(saved, name).then((found) => {
      if (closed) return;
      const r = row[name];
      if (found.api) {
        r.api = found.api;
        r.encode = encodeWith(found.api);
      } else r.status = found.error;
      draw();
      el.dispatchEvent(new CustomEvent("course-comparator-loaded", { detail: { name, ok: !!found.api } }));
    });
  }
  return () => {
    closed = true;
    stopLive();
    paint.stop();
  };
}

export default { render };
