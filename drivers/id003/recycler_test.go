package id003_test

import (
	"errors"
	"strings"
	"testing"

	"github.com/polaris-vlt/polaris/drivers/id003"
	"github.com/polaris-vlt/polaris/drivers/id003/emulator"
)

// A recycler-extension status frame (F0 20 …) and a STACKED with a data
// byte are decoded, not dropped as "no reply".
func TestRecyclerFramesDecode(t *testing.T) {
	ext := id003.Frame{Code: id003.StExtension, Data: []byte{0x20, 0x23, 0x01}}
	st, err := id003.ParseStatus(ext)
	if err != nil || st.Ext == nil || st.Ext.Unit != 0x20 || st.Ext.Code != 0x23 || string(st.Ext.Data) != "\x01" {
		t.Fatalf("F0 20 23 01: %+v, %v", st, err)
	}
	if !id003.IsStatus(ext) {
		t.Fatal("the session would drop a recycler status as no reply")
	}
	st, err = id003.ParseStatus(id003.Frame{Code: id003.StStacked, Data: []byte{0x02}})
	if err != nil || string(st.StackedData) != "\x02" || st.String() != "STACKED 02" {
		t.Fatalf("STACKED 02: %+v, %v", st, err)
	}
	for _, bad := range []id003.Frame{
		{Code: id003.StExtension},                           // no unit
		{Code: id003.StExtension, Data: []byte{0x20}},       // no sub-code
		{Code: id003.StExtension, Data: []byte{0x21, 0x01}}, // not the recycler
		{Code: id003.StStacked, Data: []byte{1, 2}},
	} {
		if _, err := id003.ParseStatus(bad); !errors.Is(err, id003.ErrStatusData) {
			t.Errorf("% X: %v", bad.Data, err)
		}
	}
	// the wire form round-trips through the decoder
	b := ext.MustEncode()
	var dec id003.Decoder
	dec.Write(b)
	f, ok := dec.Next()
	if !ok || f.Code != 0xF0 || string(f.Data) != "\x20\x23\x01" {
		t.Fatalf("decoded %v from % X", f, b)
	}
}

// On the line: a unit with a recycler reports extension frames between
// normal statuses and a data byte with STACKED; the driver reports them as
// RecyclerStatus, credits the note once, and stays online.
func TestRecyclerUnitOverTheLine(t *testing.T) {
	r := newRig(t, func(c *id003.Config, e *emulator.Config) {
		c.Recycler = true
		e.Recycler, e.StackedData = true, 0x01
	})
	r.ready()
	r.emu.RecyclerReport(0x23, 0x01)
	rs := await[id003.RecyclerStatus](r, wait)
	if rs.Ext == nil || rs.Ext.Code != 0x23 || !rs.Expected {
		t.Fatalf("%v", rs)
	}
	r.insertNote(0x64)
	await[id003.Escrow](r, wait)
	r.do(r.drv.Stack)
	await[id003.Stacked](r, wait)
	rs = await[id003.RecyclerStatus](r, wait)
	if string(rs.StackedData) != "\x01" {
		t.Fatalf("%v", rs)
	}
	r.settle()
	if n := count[id003.Stacked](r); n != 1 {
		t.Fatalf("%d Stacked", n)
	}
	if n := count[id003.CommLost](r) + count[id003.Anomaly](r); n != 0 {
		t.Fatalf("%s", r.dump())
	}
}

// A unit configured without a recycler that sends its frames: decoded,
// reported, and flagged once.
func TestRecyclerFramesFromAPlainUnitAreFlagged(t *testing.T) {
	r := newRig(t)
	r.ready()
	r.emu.RecyclerReport(0x24)
	r.emu.RecyclerReport(0x25)
	await[id003.RecyclerStatus](r, wait)
	a := await[id003.Anomaly](r, wait)
	if !strings.Contains(a.Detail, "without a recycler") {
		t.Fatalf("%v", a)
	}
	r.settle()
	if n := count[id003.Anomaly](r); n != 1 {
		t.Fatalf("%d anomalies: %s", n, r.dump())
	}
}

// A unit of another currency variant: its rows are left out of the table
// (its notes are worth nothing here) and an Anomaly names them.
func TestForeignCurrencyTableIsNotCredited(t *testing.T) {
	r := newRig(t, func(c *id003.Config, e *emulator.Config) {
		c.Country = emulator.CountryCZK // a Czech cabinet ...
		e.Currency = emulator.EUR       // ... with a euro unit
	})
	a := await[id003.Anomaly](r, wait)
	if !strings.Contains(a.Detail, "not of country CB") {
		t.Fatalf("%v", a)
	}
	rd := await[id003.Ready](r, wait)
	if len(rd.Currency) != 0 {
		t.Fatalf("euro rows kept: %v", rd.Currency)
	}
	r2 := newRig(t, func(c *id003.Config, e *emulator.Config) {
		c.Country = emulator.CountryCZK
		e.Currency = emulator.CZK
	})
	rd = await[id003.Ready](r2, wait)
	if len(rd.Currency) != 6 || rd.Currency[0x66].Minor(0) != 5000 || rd.Currency[0x61].Minor(2) != 10000 {
		t.Fatalf("CZK table %v", rd.Currency)
	}
}
