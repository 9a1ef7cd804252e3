-- Loaded by bench/wrk.mjs with `wrk -s`: after wrk's own report, one line with every latency
-- wrk recorded, as "value:count" pairs (microseconds, how many requests took that long), so
-- that runs can be merged into one distribution (the p99 of all of a URL's slices together).
-- `latency(i)` gives the i-th distinct value wrk recorded and its count; `#latency` how many
-- distinct values there are (wrk 4's scripting interface).
done = function(summary, latency, requests)
  local entries = {}
  for i = 1, #latency do
    local value, count = latency(i)
    entries[i] = string.format("%d:%d", value, count)
  end
  io.write("latency-histogram-us ", table.concat(entries, " "), "\n")
end
