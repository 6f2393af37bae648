package ledger

import (
	"fmt"
	"strconv"
)

// MeterModulus is where every accounting meter rolls over to 0: 12 decimal
// digits (999 999 999 999 is the largest value shown). Value meters count
// minor units (cents), count meters count events.
const MeterModulus int64 = 1_000_000_000_000

// Meter names one accounting meter.
type Meter string

// The accounting meters. Per game and per game denomination only the game
// meters (coin in … risk won) are kept; bills per note value in scope
// "bill/<value>"; door opens per door in scope "door/<name>".
const (
	CoinIn                 Meter = "coin_in"  // total bet, excluding Risk re-wagers
	CoinOut                Meter = "coin_out" // game wins paid to the credit meter
	GamesPlayed            Meter = "games_played"
	GamesWon               Meter = "games_won"
	HandpayWin             Meter = "handpay_win"              // wins paid by attendant
	HandpayToCredit        Meter = "handpay_to_credit"        // large wins the attendant put on the credit meter (also in coin out)
	HandpayCancelledCredit Meter = "handpay_cancelled_credit" // cancelled credit paid by attendant
	JackpotAttendant       Meter = "jackpot_attendant"        // progressive/mystery jackpots paid by attendant
	BillsInValue           Meter = "bills_in_value"
	BillsInCount           Meter = "bills_in_count"
	TicketsInValue         Meter = "tickets_in_value"
	TicketsInCount         Meter = "tickets_in_count"
	TicketsOutValue        Meter = "tickets_out_value"
	TicketsOutCount        Meter = "tickets_out_count"
	TotalDrop              Meter = "total_drop" // bills + tickets into the cash box
	RiskWagered            Meter = "risk_wagered"
	RiskWon                Meter = "risk_won"
	WagersRefunded         Meter = "wagers_refunded" // stakes returned by REFUND
	DoorOpens              Meter = "door_opens"
	PowerUps               Meter = "power_ups"
	RAMClears              Meter = "ram_clears"
)

// CabinetMeters lists the cabinet-scope meters in display order.
var CabinetMeters = []Meter{CoinIn, CoinOut, GamesPlayed, GamesWon, HandpayWin, HandpayToCredit,
	HandpayCancelledCredit, JackpotAttendant, BillsInValue, BillsInCount,
	TicketsInValue, TicketsInCount, TicketsOutValue, TicketsOutCount, TotalDrop,
	RiskWagered, RiskWon, WagersRefunded, DoorOpens, PowerUps, RAMClears}

// GameMeters are kept per game and per denomination as well.
var GameMeters = []Meter{CoinIn, CoinOut, GamesPlayed, GamesWon, HandpayWin, HandpayToCredit,
	JackpotAttendant, RiskWagered, RiskWon, WagersRefunded}

// Scope names a set of meters.
type Scope string

// ScopeCabinet holds the machine-wide meters.
const ScopeCabinet Scope = "cabinet"

// GameScope is the scope of one game's meters.
func GameScope(game string) Scope { return Scope("game/" + game) }

// DenomScope is the scope of one denomination's meters.
func DenomScope(denom int64) Scope { return Scope("denom/" + strconv.FormatInt(denom, 10)) }

// BillScope holds the count of one note value.
func BillScope(value int64) Scope { return Scope("bill/" + strconv.FormatInt(value, 10)) }

// DoorScope holds the opens of one door.
func DoorScope(door string) Scope { return Scope("door/" + door) }

// rollAdd adds delta (≥ 0) to a meter value modulo MeterModulus.
func rollAdd(v, delta int64) int64 {
	if delta < 0 {
		panic(fmt.Sprintf("ledger: negative meter delta %d", delta))
	}
	return (v%MeterModulus + delta%MeterModulus) % MeterModulus
}

func modSub(a, b int64) int64 {
	return ((a-b)%MeterModulus + MeterModulus) % MeterModulus
}

// ConfigCurrency is the configuration key naming the unit of every amount
// in the ledger, "CODE DIGITS" ("CZK 0", "EUR 2"), set by the cabinet from
// its market so that tools reading the ledger alone format amounts right.
const ConfigCurrency = "currency"
