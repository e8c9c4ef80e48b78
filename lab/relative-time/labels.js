// What no language pack can translate, in the interface's language:
//  - jupytext 1.19.6 labels its pairing commands (File › Jupytext, the command palette) with English
//    strings it never passes to its translator (its `caption` and `paletteLabel`): every label and caption
//    of jupytext's commands goes through the "jupytext" domain (lab/po/jupytext.po has the strings; a label
//    already translated is looked up again and, being no message id, comes back unchanged);
//  - JupyterLab 4.6.6's document registry names a notebook "Notebook" in every language, and the File
//    menu puts that name in its phrases («Сохранить Notebook»): each file type's name becomes its
//    translation in the context "file type in a phrase", where the catalogue has one («ноутбук»);
//  - the debugger button's tooltip comes from the null translator («Enable Debugger»), and a tab's tooltip
//    says "None" for a document never checkpointed: both are translated as the page shows them.
import { ITranslator } from '@jupyterlab/translation';

const JUPYTEXT = /^jupytext:/;
// the button, or the element inside it that carries its tooltip
const DEBUGGER_BUTTON = '.jp-DebuggerBugButton[title], .jp-DebuggerBugButton [title]';
const TAB = '.lm-TabBar-tab[title]';
const NO_CHECKPOINT = /: None$/;

const plugin = {
  id: 'course-jupyterlab-relative-time:labels',
  description: "Jupytext's command labels and the debugger button's tooltip through the translator",
  autoStart: true,
  requires: [ITranslator],
  activate: (app, translator) => {
    const jupytext = translator.load('jupytext');
    const jupyterlab = translator.load('jupyterlab');
    const translate = (trans, text) => (typeof text === 'string' && text ? trans.__(text) : text);
    const { commands } = app;
    // Lumino's registry keeps each command's options normalised, every label a function of the
    // command's arguments (CommandRegistry._commands, @lumino/commands 2): wrapped in place, since a
    // command cannot be registered twice
    const done = new Set();
    const wrap = id => {
      const command = commands._commands && commands._commands.get(id);
      if (!command || done.has(id)) return;
      done.add(id);
      for (const key of ['label', 'caption']) {
        const original = command[key];
        command[key] = args => translate(jupytext, original(args));
      }
      commands.notifyCommandChanged(id);
    };
    commands.listCommands().filter(id => JUPYTEXT.test(id)).forEach(wrap);
    commands.commandChanged.connect((_, change) => {
      if (change.type === 'added' && JUPYTEXT.test(change.id)) wrap(change.id);
    });

    for (const fileType of app.docRegistry.fileTypes()) {
      const name = fileType.displayName;
      const translated = name && jupyterlab._p('file type in a phrase', name);
      if (translated && translated !== name) fileType.displayName = translated;
    }

    // the debugger button is drawn again (its tooltip with it) whenever the kernel or the debugger
    // changes, a tab's tooltip whenever its document is saved: each is translated whenever it is set,
    // looking only at what each change touched
    const none = `: ${jupyterlab._p('no checkpoint', 'None')}`;
    const retitle = element => {
      const title = element.getAttribute('title');
      const translated = element.matches(TAB)
        ? title.replace(NO_CHECKPOINT, none)
        : translate(jupyterlab, title);
      if (translated !== title) element.setAttribute('title', translated);
    };
    new MutationObserver(records => {
      for (const record of records) {
        if (record.type === 'attributes') {
          if (record.target.matches(`${DEBUGGER_BUTTON}, ${TAB}`)) retitle(record.target);
          continue;
        }
        for (const node of record.addedNodes) {
          if (node.nodeType !== Node.ELEMENT_NODE) continue;
          if (node.matches(`${DEBUGGER_BUTTON}, ${TAB}`)) retitle(node);
          node.querySelectorAll(`${DEBUGGER_BUTTON}, ${TAB}`).forEach(retitle);
        }
      }
    }).observe(document.body, { subtree: true, childList: true, attributes: true, attributeFilter: ['title'] });
  }
};

export default plugin;
