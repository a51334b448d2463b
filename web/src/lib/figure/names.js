// Number and range forms shared by the figures on screen and their file names.
import { formatInteger } from '../numbers.js';

/** The range part of a file name: rows first … last, both included ("rows0-19" for 20 rows from 0). */
export function rowRangeName(first, count, word = 'rows') {
  return `${word}${first}-${first + count - 1}`;
}

/** Integers in full with thousands separators from 10,000 on (as the live heatmaps label positions). */
export function fullInt(t) {
  return formatInteger(t);
}
