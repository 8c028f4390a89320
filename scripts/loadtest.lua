-- wrk script of scripts/loadtest: each thread sends its own file of envelopes (LOADTEST_DIR/thread-N.ndjson), checks
-- every answer against what its request id says it should be (valid-… and dce-send's sealed ones 200; invalid-… 422
-- with rule format; tampered-… 422 with rule tampered; a repeat the same as its original), and stops once every
-- request is answered; the last thread to finish stops wrk. done() prints the counts and the latency percentiles.
local threads = {}
local counter = 0

function setup(thread)
    counter = counter + 1
    thread:set("id", counter)
    table.insert(threads, thread)
end

-- With API keys on (scripts/loadtest sets LOADTEST_KEY), every request presents the key.
local headers = { ["Content-Type"] = "application/json" }
local key = os.getenv("LOADTEST_KEY")
if key ~= nil and key ~= "" then headers["Authorization"] = "Bearer " .. key end

local function request_id(text)
    return string.match(text, '"requestId":"([^"]*)"')
end

function init(args)
    requests = {}
    -- Answers still owed, by request id (a repeat owes a second one), and each id's request and kind.
    pending = {}
    line_of = {}
    kind_of = {}
    local path = os.getenv("LOADTEST_DIR") .. "/thread-" .. id .. ".ndjson"
    for line in io.lines(path) do
        local built = wrk.format("POST", "/v1/requests", headers, line)
        requests[#requests + 1] = built
        local rid = request_id(line)
        pending[rid] = (pending[rid] or 0) + 1
        line_of[rid] = built
        kind_of[rid] = string.match(rid, "^(%a+)%-") or "sealed"
    end
    -- Sent once the file is through, while the last answers come in: answered with a replay, and not counted.
    extra = wrk.format("POST", "/v1/requests", headers,
        (string.gsub(io.lines(path)(), '"requestId":"[^"]*"', '"requestId":"extra-' .. id .. '"', 1)))
    sent = 0
    answered = 0
    counts = {}
    wrong = 0
    resent = 0
    last_answer = os.time()
end

function request()
    sent = sent + 1
    if sent <= #requests then return requests[sent] end
    -- A request wrk took but never sent (it happens, rarely, when a connection opens) is sent again once no answer
    -- has come for two seconds: a repeat of a request that did arrive gets the same status, so counting stays exact.
    if os.time() - last_answer >= 2 then
        local rid = next(pending)
        if rid then
            last_answer = os.time()
            resent = resent + 1
            return line_of[rid]
        end
    end
    return extra
end

local function expected(kind)
    if kind == "valid" or kind == "sealed" then return 200, nil end
    if kind == "invalid" then return 422, '"rule":"format"' end
    if kind == "tampered" then return 422, '"rule":"tampered"' end
    return nil, nil
end

function response(status, headers, body)
    local rid = request_id(body)
    if rid == nil or pending[rid] == nil then return end
    pending[rid] = pending[rid] - 1
    if pending[rid] == 0 then pending[rid] = nil end
    answered = answered + 1
    last_answer = os.time()
    local kind = kind_of[rid]
    local key = kind .. " " .. status
    counts[key] = (counts[key] or 0) + 1
    local want, rule = expected(kind)
    if status ~= want or (rule ~= nil and not string.find(body, rule, 1, true)) then wrong = wrong + 1 end
    if answered == #requests then
        -- scripts/loadtest stops wrk once every thread has left its marker.
        io.open(os.getenv("LOADTEST_DIR") .. "/done-" .. id, "w"):close()
        wrk.thread:stop()
    end
end

function done(summary, latency, requests)
    local totals = {}
    local answers = 0
    local mismatches = 0
    local resends = 0
    for _, thread in ipairs(threads) do
        for key, value in pairs(thread:get("counts")) do totals[key] = (totals[key] or 0) + value end
        answers = answers + thread:get("answered")
        mismatches = mismatches + thread:get("wrong")
        resends = resends + thread:get("resent")
    end
    local seconds = summary.duration / 1e6
    io.write(string.format("LOADTEST requests %d seconds %.2f rps %.0f p50_ms %.2f p99_ms %.2f max_ms %.2f socket_errors %d resent %d\n",
        answers, seconds, answers / seconds, latency:percentile(50) / 1000, latency:percentile(99) / 1000,
        latency.max / 1000, summary.errors.connect + summary.errors.read + summary.errors.write + summary.errors.timeout,
        resends))
    local keys = {}
    for key in pairs(totals) do keys[#keys + 1] = key end
    table.sort(keys)
    for _, key in ipairs(keys) do io.write(string.format("LOADTEST answer %s %d\n", key, totals[key])) end
    io.write(string.format("LOADTEST wrong %d\n", mismatches))
end
