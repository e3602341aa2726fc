-- wrk script for bench/load: rotates over the main endpoints and counts answers by class.
-- Each connection walks the list from a different start so the mix stays even.
local requests = {
  {"GET",  "/v1/contrast?foreground=%23777777&background=%23ffffff", nil},
  {"POST", "/v1/contrast", '{"foreground": "#777777", "background": "#ffffff", "fontSize": 14, "fontSizeUnit": "pt", "fontWeight": 700}'},
  {"GET",  "/v1/contrast?foreground=oklch(0.6%200.15%20250)&background=white", nil},
  {"GET",  "/api/webaim?fcolor=777777&bcolor=FFFFFF", nil},
  {"GET",  "/v1/convert?color=lab(50%2040%20-20)", nil},
  {"POST", "/v1/contrast/matrix", '{"colors": ["#ffffff", "#000000", "#777777", "#0040dd", "rebeccapurple"]}'},
  {"GET",  "/healthz", nil},
}
local formatted = {}
for i, r in ipairs(requests) do
  local headers = {}
  if r[3] then headers["Content-Type"] = "application/json" end
  formatted[i] = wrk.format(r[1], r[2], headers, r[3])
end

local threads = {}
function setup(thread)
  table.insert(threads, thread)
end

function init(args)
  index = math.random(#formatted)
  s2xx, s3xx, s4xx, s5xx, other = 0, 0, 0, 0, 0
end

function request()
  index = index % #formatted + 1
  return formatted[index]
end

function response(status, headers, body)
  if status >= 500 then s5xx = s5xx + 1
  elseif status >= 400 then s4xx = s4xx + 1
  elseif status >= 300 then s3xx = s3xx + 1
  elseif status >= 200 then s2xx = s2xx + 1
  else other = other + 1 end
end

function done(summary, latency, requests)
  local t = {s2xx = 0, s3xx = 0, s4xx = 0, s5xx = 0, other = 0}
  for _, thread in ipairs(threads) do
    for k, _ in pairs(t) do t[k] = t[k] + thread:get(k) end
  end
  local e = summary.errors
  io.write(string.format("RESULT requests=%d duration_s=%.1f rps=%.0f p50_ms=%.3f p90_ms=%.3f p99_ms=%.3f max_ms=%.3f " ..
    "s2xx=%d s3xx=%d s4xx=%d s5xx=%d other=%d connect_errors=%d read_errors=%d write_errors=%d timeouts=%d status_errors=%d\n",
    summary.requests, summary.duration / 1e6, summary.requests / (summary.duration / 1e6),
    latency:percentile(50) / 1000, latency:percentile(90) / 1000, latency:percentile(99) / 1000, latency.max / 1000,
    t.s2xx, t.s3xx, t.s4xx, t.s5xx, t.other, e.connect, e.read, e.write, e.timeout, e.status))
end
