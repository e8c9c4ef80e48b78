// The course's JupyterLab extension (lab/README.md says why and how): relative times as Russian writes
// them, in a column they fit, and true as time passes; Jupytext's labels through the translator (labels.js).
//
// JupyterLab 4.6's file browser writes a file's age with @jupyterlab/coreutils' Time.formatHuman
// (Intl.RelativeTimeFormat) in the style its column's width picks: narrow under 100 px, which is the
// default (86.5 px in the 250 px a file browser first has), short up to 120 px, long beyond. English
// reads well in all three; CLDR's Russian does not: narrow drops «назад» for a sign («-14 мин», «-3 ч»),
// and the long style's widest age, «в прошлом месяце», needs 128 px, more than the 120 px from which it
// is asked for. In a Russian interface this plugin
//  - formats every call that names a style (the file browser's Modified and Created columns) in CLDR's
//    short style: «14 мин. назад», «3 ч назад», «позавчера»; a call without one (the list of
//    checkpoints) keeps the long style;
//  - keeps those columns at least MIN_WIDTH wide, the short style's widest age, so none is ever cut.
// In every language it writes each age again after each of the file browser's polls (ages.js): JupyterLab
// writes an unchanged file's age only once.
import { Time } from '@jupyterlab/coreutils';
import { DirListing, IFileBrowserFactory } from '@jupyterlab/filebrowser';
import { ITranslator } from '@jupyterlab/translation';

import { ageRecords } from './ages';
import labels from './labels';

const RUSSIAN = /^ru(-|$)/i;
// «в прошлом мес.», the short style's widest age, is 107.7 px in DejaVu Sans at the file browser's
// 13 px (a column's width is its cells')
const MIN_WIDTH = 108;
const DATE_COLUMNS = new Set(['last_modified', 'date_created']);
const AGE_CELLS = '.jp-DirListing-itemModified, .jp-DirListing-itemCreated';

const plugin = {
  id: 'course-jupyterlab-relative-time:plugin',
  description: "Relative times in CLDR's short style in a Russian interface, in columns they fit, written again at each poll",
  autoStart: true,
  // the translator sets the page's language (document.documentElement.lang) before it is provided
  requires: [ITranslator],
  optional: [IFileBrowserFactory],
  activate: (app, translator, browsers) => {
    const russian = () => RUSSIAN.test(document.documentElement.lang);
    const formatHuman = Time.formatHuman;
    Time.formatHuman = (value, style) =>
      formatHuman(value, style !== undefined && russian() ? 'short' : style);
    if (russian()) {
      for (const column of DirListing.columns) {
        if (DATE_COLUMNS.has(column.id)) {
          column.minWidth = Math.max(column.minWidth, MIN_WIDTH);
        }
      }
    }

    // every age the renderer writes, recorded with its date and style (the renderer's public methods)
    const ages = ageRecords();
    const renderer = DirListing.Renderer.prototype;
    for (const name of ['updateItemModified', 'updateItemCreated']) {
      const original = renderer[name];
      renderer[name] = function (node, date, style) {
        ages.record(node, date, style);
        return original.call(this, node, date, style);
      };
    }
    const format = (date, style) => Time.formatHuman(new Date(date), style);
    const watch = browser =>
      browser.model.refreshed.connect(() => ages.refresh(browser.node.querySelectorAll(AGE_CELLS), format));
    if (browsers) {
      browsers.tracker.forEach(watch);
      browsers.tracker.widgetAdded.connect((_, browser) => watch(browser));
    }
  }
};

export default [plugin, labels];
