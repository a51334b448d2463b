// A keyboard step redraws what the new state changes and leaves the rest of
// the page's nodes as they were (lib/dom.js show(), lib/chart.js reconcile):
// a paragraph whose text the step does not change is the same element
// afterwards (not typeset, linked, styled and laid out again), and a chart
// keeps its reference line while its curves move. Each check is paired with
// one that the step did redraw: a text that depends on the slider changed,
// and a curve's path changed.
// npm test: quick form
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { launch, openPage, settle, hashSettled } from './helpers.mjs';

let browser;
before(async () => {
  browser = await launch({ viewport: { width: 1280, height: 900 } });
});
after(async () => {
  await browser?.close();
});

/** Presses `key` on the slider `data-key` and waits for the render it makes. */
async function step(page, slider, key) {
  const renders = await page.evaluate(() => window.sinpeSite.renders.length);
  await page.focus(`.lesson-controls input.slider[data-key="${slider}"]`);
  await page.keyboard.press(key);
  await page.waitForFunction((n) => window.sinpeSite.renders.length > n, renders);
  await settle(page);
}

test('binary: a step of d_model keeps the texts it does not change and the chart’s zero line; it redraws the rest', async () => {
  const page = await openPage(browser.context, '#lesson=binary&lang=en');
  await settle(page);
  // the chart below the fold is drawn once seen
  await page.locator('.lesson-binary figure.chart').scrollIntoViewIfNeeded();
  await settle(page);
  const before = await page.evaluate(() => {
    const chart = document.querySelector('.lesson-binary figure.chart');
    window.kept = {
      zero: chart.querySelector('line.chart-mark'),
      // the last series: a column of the encoding whose frequency depends on d (the first are the bits)
      curve: [...chart.querySelectorAll('path.chart-line')].at(-1),
      explain: document.querySelector('.binary-explain p'),
      chartText: document.querySelector('.binary-chart-text p'),
    };
    return { d: window.sinpeSite.state.d, path: window.kept.curve.getAttribute('d'), chartText: window.kept.chartText.textContent, explain: window.kept.explain.textContent };
  });
  assert.ok(before.path && before.explain && before.chartText, 'the chart and both texts are drawn');

  // d changes the explanation's ratio base^(2/d) and the chart's columns' wavelengths: both redrawn
  await step(page, 'd', 'ArrowRight');
  const afterD = await page.evaluate(() => {
    const chart = document.querySelector('.lesson-binary figure.chart');
    return {
      d: window.sinpeSite.state.d,
      zeroKept: chart.querySelector('line.chart-mark') === window.kept.zero,
      zeroConnected: window.kept.zero.isConnected,
      path: [...chart.querySelectorAll('path.chart-line')].at(-1).getAttribute('d'),
      explain: document.querySelector('.binary-explain p').textContent,
      chartText: document.querySelector('.binary-chart-text p').textContent,
    };
  });
  assert.notEqual(afterD.d, before.d, 'the step changed d');
  assert.notEqual(afterD.path, before.path, 'the curve was redrawn for the new d');
  assert.notEqual(afterD.chartText, before.chartText, 'the chart’s text names the new wavelengths');
  assert.ok(afterD.zeroKept && afterD.zeroConnected, 'the zero line is the same element after the step');

  // bits changes neither text (they depend on d and base): the same paragraphs stay
  await page.evaluate(() => {
    window.kept.explain = document.querySelector('.binary-explain p');
    window.kept.chartText = document.querySelector('.binary-chart-text p');
  });
  const bits = await page.evaluate(() => window.sinpeSite.state.bits);
  await step(page, 'bits', 'ArrowLeft');
  const afterBits = await page.evaluate(() => ({
    bits: window.sinpeSite.state.bits,
    explainKept: document.querySelector('.binary-explain p') === window.kept.explain && window.kept.explain.isConnected,
    chartTextKept: document.querySelector('.binary-chart-text p') === window.kept.chartText && window.kept.chartText.isConnected,
  }));
  assert.notEqual(afterBits.bits, bits, 'the step changed bits');
  assert.ok(afterBits.explainKept, 'the explanation (unchanged by bits) is the same paragraph');
  assert.ok(afterBits.chartTextKept, 'the chart’s text (unchanged by bits) is the same paragraph');
  assert.deepEqual(page.problems, []);
  await page.close();
});

/**
 * Opens `hash`, presses ArrowRight `steps` times on `slider`, and checks that the
 * boxes (selectors) changed, are the same elements as before the steps (show() kept
 * them) and hold what a fresh page at the new state draws.
 */
async function keptAsFresh(hash, slider, steps, boxes, expectHash) {
  const page = await openPage(browser.context, hash);
  await settle(page);
  await page.evaluate((selectors) => {
    window.kept = selectors.map((s) => document.querySelector(s));
    window.keptFirst = selectors.map((s) => document.querySelector(s).querySelector('*'));
  }, boxes);
  const first = await page.evaluate((selectors) => selectors.map((s) => document.querySelector(s).innerHTML), boxes);
  for (let k = 0; k < steps; k++) await step(page, slider, 'ArrowRight');
  const after = await page.evaluate((selectors) => ({
    html: selectors.map((s) => document.querySelector(s).innerHTML),
    kept: selectors.map((s, i) => document.querySelector(s) === window.kept[i] && document.querySelector(s).querySelector('*') === window.keptFirst[i]),
  }), boxes);
  after.html.forEach((html, i) => assert.notEqual(html, first[i], `${boxes[i]} shows the new state`));
  assert.ok(after.kept.every(Boolean), `each box and its first element are the same elements after the steps (${after.kept})`);
  const newHash = await hashSettled(page);
  assert.match(newHash, expectHash);
  // a fresh page at the same state draws the same nodes
  const fresh = await openPage(browser.context, newHash);
  await settle(fresh);
  const freshHtml = await fresh.evaluate((selectors) => selectors.map((s) => document.querySelector(s).innerHTML), boxes);
  freshHtml.forEach((html, i) => assert.equal(after.html[i], html, `${boxes[i]} as a fresh page draws it`));
  await fresh.close();
  await page.close();
}

test('relative: steps of the position change only the numbers of the rotation check, its formulas and its table, as a fresh page draws them', async () => {
  // four steps: the rotated pairs' signs change on the way (a number's TeX gains or loses its minus)
  await keptAsFresh('#lesson=relative&lang=en', 'pos', 4, ['.rotation-check', '.rotation-blocks', '.rotation-table'], /pos=7/);
});

test('binary and rope: a step changes only the numbers of the binary table and of the RoPE layout tables, as a fresh page draws them', async () => {
  await keptAsFresh('#lesson=binary&lang=en', 'd', 2, ['.binary-table'], /d=/);
  await keptAsFresh('#lesson=rope&lang=en', 'pos', 3, ['.rope-layouts'], /pos=/);
});

test('embeddings: a step of each slider shows the four maps, the state each figure names, the shapes, the table and the readout as a fresh page draws them', async () => {
  // a step recomputes and redraws only what it changes (a dropout step: the dropout map); the rest is kept
  const read = (page) =>
    page.evaluate(async () => {
      await new Promise((r) => setTimeout(r, 300)); // a canvas is trimmed to its frame 250 ms after a draw
      return {
        maps: [...document.querySelectorAll('.embedding-figure')].map((box) => {
          const figure = box.querySelector('figure.heatmap');
          return { hidden: box.hidden, pixels: box.hidden ? null : figure.querySelector('canvas.heatmap-canvas').toDataURL(), state: box.hidden ? null : JSON.stringify(figure.figureSource.state()) };
        }),
        shapes: document.querySelector('.shapes annotation').textContent,
        table: [...document.querySelectorAll('.edit-table input')].map((i) => i.value).join(' '),
        readout: document.querySelector('.embeddings-readout').textContent,
      };
    });
  const page = await openPage(browser.context, '#lesson=embeddings&lang=en&len=7');
  await settle(page);
  // len 7 → 6 → 5 (fewer rows than the 6 tokens: no sum) → 6
  const steps = [['dropout', 'ArrowRight'], ['seed', 'ArrowRight'], ['scale', 'ArrowRight'], ['len', 'ArrowLeft'], ['len', 'ArrowLeft'], ['len', 'ArrowRight'], ['d', 'ArrowRight']];
  let hidden = 0;
  for (const [slider, key] of steps) {
    const before = await read(page);
    await step(page, slider, key);
    const after = await read(page);
    assert.notDeepEqual(after, before, `${slider} ${key}: the step changed what is shown`);
    assert.equal(after.maps.length, 4);
    hidden += after.maps.filter((m) => m.hidden).length;
    const fresh = await openPage(browser.context, await hashSettled(page));
    await settle(fresh);
    assert.deepEqual(after, await read(fresh), `${slider} ${key}: as a fresh page at ${await hashSettled(page)} draws it`);
    await fresh.close();
  }
  assert.equal(hidden, 2, 'at len 5 the sum and its dropout are not drawn');
  assert.deepEqual(page.problems, []);
  await page.close();
});
