// Relative times as Russian writes them, in a column they fit (lab/README.md says why and how).
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
// Other languages are left as JupyterLab has them.
import { Time } from '@jupyterlab/coreutils';
import { DirListing } from '@jupyterlab/filebrowser';
import { ITranslator } from '@jupyterlab/translation';

const RUSSIAN = /^ru(-|$)/i;
// «в прошлом мес.», the short style's widest age, is 107.7 px in DejaVu Sans at the file browser's
// 13 px (a column's width is its cells')
const MIN_WIDTH = 108;
const DATE_COLUMNS = new Set(['last_modified', 'date_created']);

const plugin = {
  id: 'course-jupyterlab-relative-time:plugin',
  description: "Relative times in CLDR's short style in a Russian interface, in columns they fit",
  autoStart: true,
  // the translator sets the page's language (document.documentElement.lang) before it is provided
  requires: [ITranslator],
  activate: () => {
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
  }
};

export default plugin;
