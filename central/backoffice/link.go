package backoffice

import (
	"fmt"
	"time"

	"github.com/polaris-vlt/polaris/central/server"
)

// linkView is a cabinet's link statistics (server.Link) as the cabinet page
// shows them: times as the store's Unix nanoseconds, counts by reason in
// order.
type linkView struct {
	server.LinkStats
	SinceNs, LastRequestNs int64
	Offset                 string // the cabinet's clock against the server's
	Refusals, Alarms       []reasonCount
}

type reasonCount struct {
	Reason string
	N      int64
}

func newLinkView(ls server.LinkStats) linkView {
	v := linkView{LinkStats: ls}
	if ls.Connected {
		v.SinceNs = ls.Since.UnixNano()
	}
	if !ls.LastRequest.IsZero() {
		v.LastRequestNs = ls.LastRequest.UnixNano()
	}
	if ls.HelloAt != 0 {
		v.Offset = offsetText(time.Duration(ls.OffsetNanos))
	}
	for _, r := range server.Reasons(ls.Refusals24h) {
		v.Refusals = append(v.Refusals, reasonCount{r, ls.Refusals24h[r]})
	}
	for _, r := range server.Reasons(ls.Alarms24h) {
		v.Alarms = append(v.Alarms, reasonCount{r, ls.Alarms24h[r]})
	}
	return v
}

// offsetText is a clock offset in seconds with its sign and milliseconds:
// "+1.500 s" is a cabinet clock ahead of the server's.
func offsetText(d time.Duration) string {
	sign := "+"
	if d < 0 {
		sign, d = "−", -d
	}
	return fmt.Sprintf("%s%d.%03d s", sign, d/time.Second, (d%time.Second)/time.Millisecond)
}
