package escposemu

import (
	"bytes"
	"image"
	"image/color"
	"strings"
	"time"
)

// The command set is Epson's common ESC/POS set, each command taking exactly
// the argument bytes Epson's reference gives (fixed counts, or pL pH / nL nH
// / xL xH yL yH lengths), so the argument bytes of a command the printer
// does not act on never leak into the text. Commands the emulator does not
// act on are skipped whole.

// Paper is the medium the printer is loaded with.
type Paper int

const (
	// TicketPaper is fan-fold TITO ticket stock: 65 × 156 mm (520 × 1248
	// dots at 203 dpi), 512 dots printable.
	TicketPaper Paper = iota
	// ReceiptPaper is a roll: each ticket is as long as what was printed.
	ReceiptPaper
)

// Ticket size in dots (203 dpi): 65 × 156 mm.
const (
	TicketWidthDots  = 520
	TicketLengthDots = 1248
)

// Run is text printed in one style.
type Run struct {
	Text string
	runStyle
}

type runStyle struct {
	Bold, Underline, Invert bool
	W, H                    int  // character size multipliers (GS !, ESC !)
	FontB                   bool // ESC M 1: 9 × 17 dots
}

type qrState struct {
	model, size, level byte // GS ( k fn 65 / 67 / 69
	data               []byte
}

// fixed are commands with a fixed number of argument bytes after their
// prefix (ESC x / GS x / FS x), and what the emulator does with them.
var fixedArgs = map[[2]byte]int{
	{0x1b, ' '}: 1, {0x1b, '!'}: 1, {0x1b, '$'}: 2, {0x1b, '%'}: 1, {0x1b, '-'}: 1, {0x1b, '2'}: 0,
	{0x1b, '3'}: 1, {0x1b, '<'}: 0, {0x1b, '='}: 1, {0x1b, '?'}: 1, {0x1b, '@'}: 0, {0x1b, 'B'}: 2,
	{0x1b, 'C'}: 1, {0x1b, 'E'}: 1, {0x1b, 'G'}: 1, {0x1b, 'J'}: 1, {0x1b, 'K'}: 1, {0x1b, 'L'}: 0,
	{0x1b, 'M'}: 1, {0x1b, 'R'}: 1, {0x1b, 'S'}: 0, {0x1b, 'T'}: 1, {0x1b, 'U'}: 1, {0x1b, 'V'}: 1,
	{0x1b, 'W'}: 8, {0x1b, '\\'}: 2, {0x1b, 'a'}: 1, {0x1b, 'c'}: 2, {0x1b, 'd'}: 1, {0x1b, 'e'}: 1,
	{0x1b, 'f'}: 2, {0x1b, 'i'}: 0, {0x1b, 'm'}: 0, {0x1b, 'p'}: 3, {0x1b, 'r'}: 1, {0x1b, 't'}: 1,
	{0x1b, 'u'}: 1, {0x1b, 'v'}: 0, {0x1b, '{'}: 1,
	{0x1d, '!'}: 1, {0x1d, '$'}: 2, {0x1d, '/'}: 1, {0x1d, ':'}: 0, {0x1d, 'B'}: 1, {0x1d, 'H'}: 1,
	{0x1d, 'I'}: 1, {0x1d, 'L'}: 2, {0x1d, 'P'}: 2, {0x1d, 'T'}: 1, {0x1d, 'W'}: 2, {0x1d, '\\'}: 2,
	{0x1d, '^'}: 3, {0x1d, 'a'}: 1, {0x1d, 'b'}: 1, {0x1d, 'c'}: 0, {0x1d, 'f'}: 1, {0x1d, 'g'}: 2,
	{0x1d, 'h'}: 1, {0x1d, 'j'}: 1, {0x1d, 'r'}: 1, {0x1d, 'w'}: 1, {0x1d, 'z'}: 1,
	{0x1c, '!'}: 1, {0x1c, '&'}: 0, {0x1c, '-'}: 1, {0x1c, '.'}: 0, {0x1c, 'C'}: 1, {0x1c, 'S'}: 2,
	{0x1c, 'W'}: 1, {0x1c, 'p'}: 2,
}

// step runs one command from the head of the queue; n == 0 means it is
// incomplete.
func (e *Emulator) step() (n int, pause time.Duration) {
	q := e.queue
	switch c := q[0]; {
	case c == 0x0a:
		return 1, e.flushLine(true)
	case c == 0x0d, c == 0x00:
		return 1, 0
	case c == 0x09:
		e.addText([]byte{' '})
		return 1, 0
	case c == 0x0c: // FF: in standard mode, print and feed
		return 1, e.flushLine(true)
	case c == 0x18: // CAN: page-mode data cancelled
		return 1, 0
	case c == 0x10:
		return e.dle(q)
	case c == 0x1b || c == 0x1d || c == 0x1c:
		return e.escape(q)
	case c < 0x20 || c == 0x7f:
		return 1, 0
	}
	// a run of printable bytes
	k := 1
	for k < len(q) && q[k] >= 0x20 && q[k] != 0x7f {
		k++
	}
	e.addText(q[:k])
	return k, 0
}

// dle skips the real-time commands that reached the print buffer (their
// answers are given by receive): DLE EOT n, DLE ENQ n, DLE DC4 fn a b.
func (e *Emulator) dle(q []byte) (int, time.Duration) {
	if len(q) < 2 {
		return 0, 0
	}
	switch q[1] {
	case 0x04, 0x05:
		if len(q) < 3 {
			return 0, 0
		}
		return 3, 0
	case 0x14:
		if len(q) < 5 {
			return 0, 0
		}
		return 5, 0
	}
	return 1, 0
}

func (e *Emulator) escape(q []byte) (int, time.Duration) {
	if len(q) < 2 {
		return 0, 0
	}
	p, c := q[0], q[1]
	if k, ok := fixedArgs[[2]byte{p, c}]; ok {
		if len(q) < 2+k {
			return 0, 0
		}
		return 2 + k, e.fixed(p, c, q[2:2+k])
	}
	switch {
	case p == 0x1d && c == 'V': // GS V m [n]
		if len(q) < 3 {
			return 0, 0
		}
		if m := q[2]; m == 65 || m == 66 || m == 97 || m == 98 || m == 103 || m == 104 {
			if len(q) < 4 {
				return 0, 0
			}
			return 4, e.cut()
		}
		return 3, e.cut()
	case p == 0x1d && c == 'k':
		return e.barcode(q)
	case p == 0x1d && (c == '(' || c == '8'), p == 0x1c && c == '(', p == 0x1b && c == '(':
		return e.paren(q)
	case p == 0x1d && c == 'v': // GS v 0 m xL xH yL yH d…: raster bit image
		if len(q) < 8 {
			return 0, 0
		}
		xb, y := int(q[4])|int(q[5])<<8, int(q[6])|int(q[7])<<8
		if len(q) < 8+xb*y {
			return 0, 0
		}
		e.image(raster(q[8:8+xb*y], xb, y), q[3])
		return 8 + xb*y, e.opt.LineTime * time.Duration(y/24+1)
	case p == 0x1b && c == '*': // ESC * m nL nH d…: bit image, 8 or 24 dots tall
		if len(q) < 5 {
			return 0, 0
		}
		cols := int(q[3]) | int(q[4])<<8
		rows := 1
		if q[2] == 32 || q[2] == 33 {
			rows = 3
		}
		if len(q) < 5+cols*rows {
			return 0, 0
		}
		e.image(column(q[5:5+cols*rows], cols, rows), 0)
		return 5 + cols*rows, e.opt.LineTime
	case p == 0x1d && c == '*': // GS * x y d…: define downloaded bit image
		if len(q) < 4 {
			return 0, 0
		}
		k := int(q[2]) * int(q[3]) * 8
		if len(q) < 4+k {
			return 0, 0
		}
		return 4 + k, 0
	case p == 0x1b && c == 'D': // ESC D n1 … NUL: tab positions
		end := bytes.IndexByte(q[2:], 0)
		if end < 0 {
			if len(q) > 2+32 {
				return 2 + 32, 0
			}
			return 0, 0
		}
		return 2 + end + 1, 0
	case p == 0x1b && c == '&': // ESC & y c1 c2 [x d1…d(y×x)]…: user characters
		if len(q) < 5 {
			return 0, 0
		}
		y, n := int(q[2]), 5
		for ch := int(q[3]); ch <= int(q[4]); ch++ {
			if len(q) < n+1 {
				return 0, 0
			}
			n += 1 + y*int(q[n])
		}
		if len(q) < n {
			return 0, 0
		}
		return n, 0
	case p == 0x1c && c == 'q': // FS q n [xL xH yL yH d…]…: NV bit images
		if len(q) < 3 {
			return 0, 0
		}
		n := 3
		for i := 0; i < int(q[2]); i++ {
			if len(q) < n+4 {
				return 0, 0
			}
			n += 4 + (int(q[n])|int(q[n+1])<<8)*(int(q[n+2])|int(q[n+3])<<8)*8
		}
		if len(q) < n {
			return 0, 0
		}
		return n, 0
	}
	return 2, 0 // an unknown command: its prefix and code are dropped
}

// paren skips or runs GS ( fn pL pH d…, and the same form under ESC ( and
// FS (; GS 8 L uses p1–p4.
func (e *Emulator) paren(q []byte) (int, time.Duration) {
	if q[1] == '8' {
		if len(q) < 7 {
			return 0, 0
		}
		k := int(q[3]) | int(q[4])<<8 | int(q[5])<<16 | int(q[6])<<24
		if k < 0 || k > 1<<20 {
			return 7, 0
		}
		if len(q) < 7+k {
			return 0, 0
		}
		return 7 + k, 0
	}
	if len(q) < 5 {
		return 0, 0
	}
	k := int(q[3]) | int(q[4])<<8
	if len(q) < 5+k {
		return 0, 0
	}
	d := q[5 : 5+k]
	var pause time.Duration
	if q[0] == 0x1d {
		switch q[2] {
		case 'H': // process ID: answered once everything before it is on paper
			if k == 6 && d[0] == 48 && d[1] == 48 && !e.opt.NoProcessID && !e.silent {
				e.send([]byte{0x37, 0x22, d[2], d[3], d[4], d[5], 0})
			}
		case 'k':
			pause = e.qrcode(d)
		}
	}
	return 5 + k, pause
}

// fixed applies a fixed-length command.
func (e *Emulator) fixed(p, c byte, a []byte) time.Duration {
	switch [2]byte{p, c} {
	case [2]byte{0x1b, '@'}:
		e.reset()
	case [2]byte{0x1b, 'a'}:
		e.align = a[0] % 48 % 3
	case [2]byte{0x1b, 'E'}, [2]byte{0x1b, 'G'}:
		e.style.Bold = a[0]&1 == 1
	case [2]byte{0x1b, '-'}:
		e.style.Underline = a[0]%48 != 0
	case [2]byte{0x1b, 'M'}:
		e.style.FontB = a[0]%48 == 1
	case [2]byte{0x1b, '!'}: // print mode: font B, bold, double height, double width, underline
		e.style.FontB, e.style.Bold = a[0]&0x01 != 0, a[0]&0x08 != 0
		e.style.H, e.style.W = 1+int(a[0]>>4&1), 1+int(a[0]>>5&1)
		e.style.Underline = a[0]&0x80 != 0
	case [2]byte{0x1d, '!'}:
		e.style.W, e.style.H = int(a[0]>>4&7)+1, int(a[0]&7)+1
	case [2]byte{0x1d, 'B'}:
		e.style.Invert = a[0]&1 == 1
	case [2]byte{0x1b, 't'}:
		e.codepage = a[0]
	case [2]byte{0x1b, '3'}:
		e.lineSpacing = int(a[0])
	case [2]byte{0x1b, '2'}:
		e.lineSpacing = 0
	case [2]byte{0x1b, 'd'}:
		d := e.flushLine(false)
		e.feed(int(a[0]) * e.rowHeight())
		return d + e.opt.LineTime*time.Duration(a[0])
	case [2]byte{0x1b, 'J'}:
		d := e.flushLine(false)
		e.feed(int(a[0]))
		return d
	case [2]byte{0x1b, 'i'}, [2]byte{0x1b, 'm'}:
		return e.cut()
	case [2]byte{0x1d, 'h'}:
		e.barH = a[0]
	case [2]byte{0x1d, 'w'}:
		e.module = a[0]
	case [2]byte{0x1d, 'H'}:
		e.hri = a[0] % 48 & 3
	case [2]byte{0x1d, 'r'}:
		if a[0] == 1 || a[0] == 49 {
			var s byte
			if e.nearEnd {
				s |= 0x03
			}
			if e.paperEnd {
				s |= 0x0c
			}
			if !e.silent {
				e.send([]byte{s}) // in order: after everything before it was printed
			}
		}
	}
	return 0
}

// ---- text ----

func (e *Emulator) addText(b []byte) {
	s := e.decode(b)
	for _, r := range s {
		if e.lineDots()+e.charWidth(e.style) > e.opt.Width {
			e.flushLine(true) // the line is full: the printer prints it and goes on
		}
		if n := len(e.line); n > 0 && e.line[n-1].runStyle == e.style {
			e.line[n-1].Text += string(r)
		} else {
			e.line = append(e.line, Run{Text: string(r), runStyle: e.style})
		}
	}
}

func (e *Emulator) charWidth(st runStyle) int {
	if st.FontB {
		return 9 * max(st.W, 1)
	}
	return 12 * max(st.W, 1)
}

func (e *Emulator) lineDots() int {
	w := 0
	for _, r := range e.line {
		w += len([]rune(r.Text)) * e.charWidth(r.runStyle)
	}
	return w
}

// rowHeight is one line feed: the line spacing, or the font's height.
func (e *Emulator) rowHeight() int {
	if e.lineSpacing > 0 {
		return e.lineSpacing
	}
	return 24
}

// flushLine prints the line buffer; with lf an empty buffer still feeds a
// line.
func (e *Emulator) flushLine(lf bool) time.Duration {
	if len(e.line) == 0 && !lf {
		return 0
	}
	p := e.ticket()
	it := Item{Runs: e.line, Align: e.align, Spacing: e.lineSpacing, W: 1, H: 1, Bold: len(e.line) > 0}
	var txt strings.Builder
	for _, r := range e.line {
		txt.WriteString(r.Text)
		it.W, it.H = max(it.W, r.W), max(it.H, r.H)
		it.Bold = it.Bold && r.Bold
	}
	it.Text = txt.String()
	p.Items = append(p.Items, it)
	if it.Text != "" {
		p.Lines = append(p.Lines, it.Text)
	}
	e.line = nil
	return e.opt.LineTime * time.Duration(it.H)
}

func (e *Emulator) feed(dots int) {
	if dots > 0 {
		e.ticket().Items = append(e.ticket().Items, Item{Feed: dots})
	}
}

func (e *Emulator) cut() time.Duration {
	e.flushLine(false)
	e.ticket().Cut = true
	e.endTicket("")
	return e.opt.CutTime
}

// ---- images ----

// raster decodes GS v 0 data: xb bytes a row, MSB left.
func raster(d []byte, xb, y int) *image.Gray {
	img := image.NewGray(image.Rect(0, 0, xb*8, y))
	for i := range img.Pix {
		img.Pix[i] = 0xff
	}
	for row := 0; row < y; row++ {
		for x := 0; x < xb*8; x++ {
			if d[row*xb+x/8]&(0x80>>(x%8)) != 0 {
				img.SetGray(x, row, color.Gray{})
			}
		}
	}
	return img
}

// column decodes ESC * data: per column rows bytes, MSB at the top.
func column(d []byte, cols, rows int) *image.Gray {
	img := image.NewGray(image.Rect(0, 0, cols, rows*8))
	for i := range img.Pix {
		img.Pix[i] = 0xff
	}
	for x := 0; x < cols; x++ {
		for r := 0; r < rows; r++ {
			b := d[x*rows+r]
			for bit := 0; bit < 8; bit++ {
				if b&(0x80>>bit) != 0 {
					img.SetGray(x, r*8+bit, color.Gray{})
				}
			}
		}
	}
	return img
}

// image prints a bit image; GS v 0 mode 1–3 doubles width, height or both.
func (e *Emulator) image(img *image.Gray, mode byte) {
	e.flushLine(false)
	sx, sy := 1, 1
	switch mode % 48 {
	case 1:
		sx = 2
	case 2:
		sy = 2
	case 3:
		sx, sy = 2, 2
	}
	if sx != 1 || sy != 1 {
		img = scale(img, sx, sy)
	}
	e.ticket().Items = append(e.ticket().Items, Item{Image: img, Align: e.align})
}

func scale(src *image.Gray, sx, sy int) *image.Gray {
	b := src.Bounds()
	dst := image.NewGray(image.Rect(0, 0, b.Dx()*sx, b.Dy()*sy))
	for y := 0; y < dst.Bounds().Dy(); y++ {
		for x := 0; x < dst.Bounds().Dx(); x++ {
			dst.SetGray(x, y, src.GrayAt(x/sx, y/sy))
		}
	}
	return dst
}
