package id003

import "testing"

var ticketFrame = Frame{Code: StEscrow, Data: EscrowData(Document{Kind: DocTicket, Ticket: "001234567890123456"})}

func BenchmarkEncodeStatusRequest(b *testing.B) {
	buf := make([]byte, 0, MaxFrameLen)
	f := Command(CmdStatusRequest)
	b.ReportAllocs()
	for b.Loop() {
		buf, _ = f.Append(buf[:0])
	}
}

func BenchmarkEncodeTicketEscrow(b *testing.B) {
	buf := make([]byte, 0, MaxFrameLen)
	b.ReportAllocs()
	for b.Loop() {
		buf, _ = ticketFrame.Append(buf[:0])
	}
}

func BenchmarkDecodeTicketEscrow(b *testing.B) {
	line := ticketFrame.MustEncode()
	b.ReportAllocs()
	b.SetBytes(int64(len(line)))
	for b.Loop() {
		if _, _, err := Decode(line); err != nil {
			b.Fatal(err)
		}
	}
}

func BenchmarkParseTicketStatus(b *testing.B) {
	b.ReportAllocs()
	for b.Loop() {
		if _, err := ParseStatus(ticketFrame); err != nil {
			b.Fatal(err)
		}
	}
}

// A stream decoder fed a status reply split in two reads, as from a serial port.
func BenchmarkDecoderSplitReply(b *testing.B) {
	line := ticketFrame.MustEncode()
	var d Decoder
	b.ReportAllocs()
	b.SetBytes(int64(len(line)))
	for b.Loop() {
		d.Write(line[:7])
		d.Write(line[7:])
		if _, ok := d.Next(); !ok {
			b.Fatal("no frame")
		}
	}
}
