package link

import (
	"hash/fnv"
	"strconv"
	"time"
)

// jitter is in [0, n): where in its back-off window a cabinet retries. It
// spreads the retries of many cabinets after an outage, so it must differ
// between cabinets and attempts; a hash of the cabinet id and the attempt
// does, without a random source in the cabinet binary (check 30).
func jitter(cabinet string, attempt int, n time.Duration) time.Duration {
	if n <= 0 {
		return 0
	}
	h := fnv.New64a()
	h.Write([]byte(cabinet))
	h.Write([]byte{0})
	h.Write(strconv.AppendInt(nil, int64(attempt), 10))
	return time.Duration(h.Sum64() % uint64(n))
}
