// The embeddings lesson: adding PE to the token embeddings, the d2l / PyTorch way:
// X + P[:, :seq_len, :], then dropout. The sum is done by the package's
// addTo, which generates exactly the rows it adds.
import { h, fmt, tex, rich, paragraphs, clear, show } from '../../lib/dom.js';
import { createHeatmap, createColorBar } from '../../lib/heatmap.js';
import { colormapLUT, valuesToRGBA } from '../../lib/colormap.js';
import { lessonHeader, section, readout, commented } from '../../lib/lesson.js';
import { createExportBar } from '../../lib/controls.js';
import { downloadCSV, downloadNpy, toCSV } from '../../lib/export.js';
import { EDIT_LIMIT, parseEdits, formatEdits } from '../../model/fields.js';
import { embed, parseCell, dropout, addToSnippet } from '../../model/embeddings.js';
import { questions } from './questions.js';

const SUM_RANGE = 2; // X, X + P and dropout(X + P) are drawn on [−2, 2]

const cellText = (v) => String(+v.toFixed(3));

export default {
  id: 'embeddings',
  questions,
  mount(root, ctx) {
    const { t, pe } = ctx;
    const info = readout('embeddings-readout');
    const shapes = h('div', { class: 'shapes' });
    const warn = h('p', { class: 'note fail' });
    const maps = {};
    const boxes = {};
    const figure = (key, vmax) => {
      maps[key] = createHeatmap({
        xLabel: t('axis.column'),
        yLabel: t('lessons.embeddings.tokenAxis'),
        label: t(`lessons.embeddings.${key}Label`),
        className: `short map-${key}`,
        key,
        filteredNote: t('figure.averaged'),
        onCursor: (c, r) => describe(r, c),
      });
      boxes[key] = h('div', { class: 'embedding-figure' }, h('h3', {}, t(`lessons.embeddings.${key}Title`)), maps[key].element, h('p', { class: 'figure-summary' }, t('lessons.embeddings.range', { vmax })));
      return boxes[key];
    };
    const barUnit = createColorBar({ label: 'P' });
    const barSum = createColorBar({ label: 'X, X + P' });
    const exportBar = createExportBar(ctx, {
      csv: () => {
        const { s, words, sum } = current;
        downloadCSV(`sinpe_embeddings_x_plus_p_${words.length}x${s.d}.csv`, toCSV(sum, words.length, s.d, { rowLabels: words.map((w, i) => `${i}:${w}`), rowName: 'token' }));
      },
      npy: () => {
        const { s, words, sum } = current;
        downloadNpy(`sinpe_embeddings_x_plus_p_1x${words.length}x${s.d}.npy`, sum, [1, words.length, s.d]);
      },
    });

    // the editable table of X: one text input per cell, rebuilt only when its shape changes
    const editTable = h('table', { class: 'data edit-table', 'aria-label': t('lessons.embeddings.editTable') });
    const editStatus = h('p', { class: 'edit-status', 'aria-live': 'polite' });
    const editCount = h('span', { class: 'edit-count' });
    const resetButton = h('button', { type: 'button', class: 'button edit-reset', onclick: () => ctx.setState({ edit: '' }) }, t('lessons.embeddings.editReset'));
    let inputs = []; // inputs[r][c]

    function setCell(r, c, value) {
      const edits = parseEdits(ctx.state.edit).filter((e) => e.row !== r || e.col !== c);
      if (value !== null) {
        if (edits.length >= EDIT_LIMIT) {
          editStatus.textContent = t('lessons.embeddings.editFull', { limit: EDIT_LIMIT });
          return false;
        }
        edits.push({ row: r, col: c, value });
      }
      ctx.setState({ edit: formatEdits(edits) });
      return true;
    }

    // The table is changed in place: a step of d_model adds or removes one
    // column of inputs; new tokens rebuild it.
    let tableWords = '';
    let headRow = null;
    let body = null;
    function makeInput(word, r, c) {
      const input = h('input', {
        type: 'text',
        inputmode: 'decimal',
        class: 'cell-input',
        size: 6,
        autocomplete: 'off',
        spellcheck: 'false',
        'data-row': r,
        'data-col': c,
        'aria-label': t('lessons.embeddings.cellLabel', { token: word, position: r, column: c }),
      });
      // the edit of this cell when it was entered: a refused value restores it
      // (typing "-1e9" passes through the valid "-1" on the way)
      let entered = null;
      const editOf = () => parseEdits(ctx.state.edit).find((e) => e.row === r && e.col === c)?.value ?? null;
      input.addEventListener('focus', () => {
        entered = editOf();
        describe(r, c);
      });
      input.addEventListener('input', () => {
        const text = input.value.trim();
        if (text === '') return; // emptied: restored on change
        const v = parseCell(text)?.value;
        input.setAttribute('aria-invalid', String(v === undefined));
        if (v !== undefined && setCell(r, c, v)) editStatus.textContent = '';
      });
      input.addEventListener('change', () => {
        const text = input.value.trim();
        if (text === '') {
          setCell(r, c, null);
          editStatus.textContent = '';
        } else if (parseCell(text)?.value === undefined) {
          if (editOf() !== entered) setCell(r, c, entered);
          editStatus.textContent = t('lessons.embeddings.editInvalid', { value: text.slice(0, 20), kept: cellText(current.x[r * current.s.d + c]) });
        }
        input.removeAttribute('aria-invalid');
        syncTable(true);
      });
      input.addEventListener('keydown', (e) => {
        const to = { ArrowUp: r - 1, ArrowDown: r + 1 }[e.key] ?? (e.key === 'Enter' ? r + 1 : undefined);
        if (to === undefined) return;
        e.preventDefault();
        if (e.key === 'Enter') input.dispatchEvent(new Event('change'));
        inputs[Math.min(inputs.length - 1, Math.max(0, to))][c].focus();
      });
      return input;
    }

    function buildTable(words, d) {
      if (words.join(' ') !== tableWords) {
        tableWords = words.join(' ');
        clear(editTable);
        headRow = h('tr', {}, h('th', { scope: 'col' }, t('lessons.embeddings.tokenAxis')));
        body = h('tbody');
        editTable.append(h('thead', {}, headRow), body);
        inputs = words.map((word, r) => {
          body.append(h('tr', {}, h('th', { scope: 'row' }, `${r}: ${word}`)));
          return [];
        });
      }
      while (headRow.cells.length - 1 > d) headRow.lastElementChild.remove();
      while (headRow.cells.length - 1 < d) headRow.append(h('th', { scope: 'col' }, String(headRow.cells.length - 1)));
      words.forEach((word, r) => {
        const cells = inputs[r];
        const row = body.rows[r];
        while (cells.length > d) {
          cells.pop();
          row.lastElementChild.remove();
        }
        while (cells.length < d) {
          const input = makeInput(word, r, cells.length);
          cells.push(input);
          row.append(h('td', {}, input));
        }
      });
    }

    /** Shows the current X in the inputs (except the one being typed in, unless `all`). */
    function syncTable(all = false) {
      const { s, x } = current;
      const edited = new Set(parseEdits(s.edit).map((e) => `${e.row}.${e.col}`));
      inputs.forEach((cells, r) =>
        cells.forEach((input, c) => {
          const on = edited.has(`${r}.${c}`);
          input.classList.toggle('edited', on);
          input.parentElement.classList.toggle('edited', on);
          if (all || document.activeElement !== input) {
            // (written only when it changes: each write lays the input out again)
            const text = cellText(x[r * s.d + c]);
            if (input.value !== text) input.value = text;
            input.removeAttribute('aria-invalid');
          }
        }),
      );
      editCount.textContent = t('lessons.embeddings.editCount', { count: edited.size, limit: EDIT_LIMIT });
      resetButton.disabled = edited.size === 0;
    }

    root.append(
      ...lessonHeader(ctx, 'embeddings'),
      h('div', { class: 'lesson-controls' }, ctx.controls),
      shapes,
      warn,
      h('div', { class: 'side-by-side embeddings-figures' }, figure('x', SUM_RANGE), figure('p', 1), figure('sum', SUM_RANGE), figure('dropout', SUM_RANGE)),
      h('div', { class: 'side-by-side' }, barUnit.element, barSum.element),
      Object.assign(rich(t('lessons.embeddings.sameWordText')), { className: 'same-word-note' }),
      info,
      exportBar,
      section(
        t('lessons.embeddings.editTitle'),
        ...t('lessons.embeddings.editText').map((p) => rich(p.replace('{limit}', EDIT_LIMIT))),
        h('div', { class: 'table-scroll edit-scroll' }, editTable),
        h('div', { class: 'button-row' }, resetButton, editCount),
        editStatus,
      ),
      section(t('lessons.embeddings.whyTitle'), ...paragraphs(t('lessons.embeddings.why'))),
      section(t('lessons.embeddings.dropoutSection'), ...paragraphs(t('lessons.embeddings.dropoutText'))),
      section(t('lessons.embeddings.codeTitle'), h('pre', {}, h('code', { class: 'code-d2l' }, commented(ctx, 'd2l', D2L))), ...paragraphs(t('lessons.embeddings.codeText')), h('pre', {}, h('code', { class: 'sinpe-snippet' }))),
    );

    let current = null;

    function describe(r, c) {
      const { s, words, x, p, sum, dropped } = current;
      if (r >= words.length) return;
      const i = r * s.d + c;
      info.textContent = t('lessons.embeddings.readout', {
        token: words[r],
        position: r,
        column: c,
        x: fmt(x[i], 4),
        p: fmt(p[i], 4),
        sum: fmt(sum[i], 4),
        dropped: fmt(dropped[i], 4),
      });
      for (const m of Object.values(maps)) m.setCursor(c, r, false);
    }

    return {
      figures: () => maps,
      update(s, changed) {
        // what a step changes, computed and drawn again; the rest kept (a dropout step redraws one map)
        const all = !current || changed('cmap', 'lang');
        const xNew = all || changed('tokens', 'd', 'scale', 'seed', 'edit');
        const pNew = all || changed('tokens', 'd', 'len');
        const sumNew = xNew || pNew;
        const dropNew = sumNew || changed('dropout'); // (seed changes X: sumNew)
        const words = s.tokens.split(' ');
        const n = words.length;
        let x = current?.x;
        if (xNew) {
          x = new Float32Array(n * s.d);
          words.forEach((w, r) => x.set(embed(w, s.d, s.scale, s.seed), r * s.d));
          for (const e of parseEdits(s.edit)) if (e.row < n && e.col < s.d) x[e.row * s.d + e.col] = e.value;
        }
        const fits = n <= s.len;
        // P[:, :seq_len] has min(seq_len, max_len) rows: a table of max_len rows has no more
        const pRows = Math.min(n, s.len);
        const p = pNew ? pe.table(pRows, s.d) : current.p;
        let sum = current?.sum;
        if (sumNew) sum = fits ? pe.addTo(Float32Array.from(x), s.d, { seqLen: n }) : new Float32Array(n * s.d).fill(NaN);
        const dropped = dropNew ? dropout(sum, s.dropout, s.seed) : current.dropped;
        current = { s, words, x, p, sum, dropped };

        warn.textContent = fits ? '' : t('lessons.embeddings.tooShort', { n, len: s.len });
        // without enough rows the sum does not exist: its shape is left out (the note says why)
        const shapeList = [`X\\in\\mathbb{R}^{1\\times ${n}\\times ${s.d}}`, `P\\in\\mathbb{R}^{1\\times ${s.len}\\times ${s.d}}`, `P[:, :${n}, :]\\in\\mathbb{R}^{1\\times ${pRows}\\times ${s.d}}`];
        if (fits) shapeList.push(`X + P[:, :${n}, :]\\in\\mathbb{R}^{1\\times ${n}\\times ${s.d}}`);
        const shapesTex = shapeList.join(',\\quad ');
        // typeset again only when it changes (KaTeX takes a few ms); on a phone, one shape a line
        show(shapes, shapesTex, () => tex(shapesTex, true, `\\begin{gathered}${shapeList.join(',\\\\ ')}\\end{gathered}`));
        // a map whose values did not change keeps its pixels and takes the new state (its caption names it)
        const draw = (key, redraw, values, vmax, rgba, rows = n) => {
          if (!redraw) return maps[key].restate(s);
          maps[key].draw({ rgba: rgba ?? valuesToRGBA(values, s.cmap, -vmax, vmax), columns: s.d, rows, x0: 0, y0: 0, scale: { cmap: s.cmap, vmin: -vmax, vmax, label: t(`lessons.embeddings.${key}Title`) }, state: s, values: () => ({ data: values, rows }) });
        };
        draw('x', xNew, x, SUM_RANGE);
        draw('p', pNew, p, 1, pNew ? pe.heatmap(0, pRows, s.d, { colormap: colormapLUT(s.cmap) }) : null, pRows);
        boxes.sum.hidden = boxes.dropout.hidden = !fits;
        if (fits) {
          draw('sum', sumNew, sum, SUM_RANGE);
          draw('dropout', dropNew, dropped, SUM_RANGE);
        }
        if (all) {
          barUnit.draw(s.cmap, -1, 1);
          barSum.draw(s.cmap, -SUM_RANGE, SUM_RANGE);
        }
        // the table of X (and its edit count) and the snippet change with X's tokens, width, values and edits only
        if (xNew) {
          buildTable(words, s.d);
          syncTable();
          root.querySelector('.sinpe-snippet').textContent = addToSnippet(n, s.d, (key, vars) => t(`code.addTo.${key}`, vars));
        }
        const focused = document.activeElement?.classList?.contains('cell-input') ? document.activeElement : null;
        if (focused) describe(Number(focused.dataset.row), Number(focused.dataset.col));
        else describe(0, 0);
      },
    };
  },
};

const D2L = `class PositionalEncoding(nn.Module):
    def __init__(self, num_hiddens, dropout, max_len=1000):
        super().__init__()
        self.dropout = nn.Dropout(dropout)
        self.P = torch.zeros((1, max_len, num_hiddens))       # «table»
        X = torch.arange(max_len, dtype=torch.float32).reshape(-1, 1) / torch.pow(
            10000, torch.arange(0, num_hiddens, 2, dtype=torch.float32) / num_hiddens)
        self.P[:, :, 0::2] = torch.sin(X)
        self.P[:, :, 1::2] = torch.cos(X)

    def forward(self, X):                                     # «input»
        X = X + self.P[:, :X.shape[1], :].to(X.device)        # «add»
        return self.dropout(X)`;
