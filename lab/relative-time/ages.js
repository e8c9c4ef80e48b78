// File ages that stay true: the logic of index.js's refresh, with no import so that a unit test runs it
// in Node (tests/unit/test_lab_relative_time.py).
//
// JupyterLab 4.6's file browser writes a file's age («3 мин. назад», "3m ago") when it lists the file and
// again only when the file's date or the column's style changes (DirListing.Renderer caches both): the
// browser polls the server every 10 seconds, but an unchanged file keeps the age it was listed with, so
// «59 сек. назад» stays twenty minutes later. index.js records the date and style each age cell was last
// written with (`record`) and, after each poll, writes every recorded cell again from the clock (`refresh`).

// cell -> {date, style}: what the renderer last wrote there (a WeakMap: a cell the listing drops goes)
export function ageRecords() {
  const shown = new WeakMap();
  return {
    record: (cell, date, style) => shown.set(cell, { date, style }),
    // Writes the age of every cell in `cells` that was recorded, as `format(date, style)` says it now
    // (Time.formatHuman: from Date.now()); a cell whose text is already right is not touched. Returns
    // how many changed.
    refresh(cells, format) {
      let changed = 0;
      for (const cell of cells) {
        const last = shown.get(cell);
        if (!last) continue;
        const text = format(last.date, last.style);
        if (cell.textContent !== text) {
          cell.textContent = text;
          changed += 1;
        }
      }
      return changed;
    }
  };
}
