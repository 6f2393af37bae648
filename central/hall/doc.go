// Package hall is the hall jackpot display (MS-16's external screen): an
// http.Handler serving one self-contained page (HTML, CSS and JS embedded,
// nothing fetched from elsewhere) that shows the current jackpot values and
// keeps them live through server-sent events. Amounts are formatted here, in
// Go, the Czech way: "123 456 Kč", "4 938,24 €".
package hall
