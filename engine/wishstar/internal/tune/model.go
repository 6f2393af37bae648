package main

import "github.com/polaris-vlt/polaris/engine/wishstar"

// model is the design: the rule sheet's pay table and jackpots, the
// prize tables, and the strips as symbol counts and stacks. Reels 1, 3, 5
// carry Bonus and one 3-stack of Stars; reels 2 and 4 are longer and carry
// the wilds (one 3-stack = one full-wild stop, WS-4) and most Stars, in short
// stacks so six Stars come together often enough (slotmath §5.1).
func model() *wishstar.Model {
	m := &wishstar.Model{
		Game: "wishstar", Name: "Wish Upon a Star", Version: "2", PayUnit: 25,
		Pays: map[string][3]int64{
			"10": {5, 15, 50}, "J": {5, 15, 50}, "Q": {5, 15, 50}, "K": {5, 15, 50}, "A": {5, 15, 50},
			"BELL": {10, 30, 75}, "CANE": {20, 40, 80}, "CANDLE": {25, 50, 80}, "TREE": {25, 50, 100}, "ELF": {25, 75, 200},
		},
		ScatterPay: 25, FreeSpinsAward: 10, FreeSpinsMultiplier: 2, FreeSpinsMax: 50, FreeSpinsStarCash: 2,
		LockTrigger: 6, Respins: 3,
		Jackpots: map[string]int64{"MINI": 500, "MINOR": 750, "MAJOR": 1250, "GRAND": 5000},
		StarPrizes: []prize{
			{Units: 25, Weight: 3000}, {Units: 50, Weight: 2500}, {Units: 75, Weight: 1500}, {Units: 125, Weight: 1000},
			{Units: 250, Weight: 400}, {Units: 375, Weight: 200},
			{Jackpot: "MINI", Weight: 120}, {Jackpot: "MINOR", Weight: 50}, {Jackpot: "MAJOR", Weight: 20},
		},
		BonusWins: []prize{
			{Units: 25, Weight: 300}, {Units: 50, Weight: 250}, {Units: 75, Weight: 150}, {Units: 125, Weight: 80}, {Units: 250, Weight: 30},
			{Jackpot: "MINI", Weight: 10}, {Jackpot: "MINOR", Weight: 5}, {Jackpot: "MAJOR", Weight: 2},
			{FreeSpins: 10, Weight: 60},
		},
		Reels: map[string][5]string{},
	}
	m.RespinLand.Range = 10000
	m.RespinLand.Land = 400
	odd := func(seed uint64, bonus int, stars ...block) string {
		return strip(seed, cat(lows(5), []block{{"BELL", 3, 1}, {"CANE", 3, 1}, {"CANDLE", 3, 1}, {"TREE", 2, 1}, {"ELF", 2, 1}, {"BONUS", bonus, 1}}, stars)...)
	}
	even := func(seed uint64, stars ...block) string {
		return strip(seed, cat(lows(9), []block{{"BELL", 6, 1}, {"CANE", 6, 1}, {"CANDLE", 5, 1}, {"TREE", 5, 1}, {"ELF", 4, 1}, {"WILD", 1, 3}, {"WILD", 3, 2}, {"WILD", 4, 1}}, stars)...)
	}
	st3 := []block{{"STAR", 1, 3}}
	evst := []block{{"STAR", 1, 3}, {"STAR", 1, 2}, {"STAR", 2, 1}}
	m.Reels["base"] = [5]string{odd(1, 3, st3...), even(2, evst...), odd(3, 2, st3...), even(4, evst...), odd(5, 3, st3...)}
	m.Reels["free"] = [5]string{odd(11, 2, st3...), even(12, evst...), odd(13, 2, st3...), even(14, evst...), odd(15, 2, st3...)}
	return m
}
