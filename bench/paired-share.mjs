// How bench/run.mjs reports the app's req/s against a reference's (decision 055).

/**
 * The app's req/s as a share of a reference's, in percent: the median over rounds of the app's
 * slice over the reference's slice of the same round (the same core, seconds apart). A burst of
 * another tenant's load on this shared machine falls on a slice or two and the median passes it
 * by: in one run, /blog's ten pairs were 78, 86, 77, 88, 85, 78, 47, 87, 64 and 84 %, a median
 * of 80.9 % where the ratio of the means said 75.7 %.
 */
export function pairedShare(app, reference) {
  const shares = app.map((reqPerSec, round) => (100 * reqPerSec) / reference[round]);
  shares.sort((a, b) => a - b);
  const middle = Math.floor(shares.length / 2);
  return shares.length % 2 ? shares[middle] : (shares[middle - 1] + shares[middle]) / 2;
}
