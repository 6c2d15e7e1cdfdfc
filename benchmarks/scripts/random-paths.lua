-- wrk: each request GETs one of the 300 benchmark files, /f000.bin .. /f299.bin, chosen at random.
local count = tonumber(os.getenv("FILES") or "300")
local paths = {}
for i = 0, count - 1 do
    paths[i + 1] = string.format("/f%03d.bin", i)
end

function setup(thread)
    thread:set("seed", math.random(1, 1000000))
end

function init(args)
    math.randomseed(seed)
end

function request()
    return wrk.format("GET", paths[math.random(1, count)])
end
