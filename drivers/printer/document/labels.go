package document

// labels holds every fixed word printed, per language.
var labels = map[Lang]map[string]string{
	English: {
		"voucher.title": "CASH-OUT VOUCHER", "validation": "VALIDATION", "date": "Date", "time": "Time",
		"ticket": "Ticket no.", "machine": "Machine", "site": "Site", "valid_until": "Valid until",
		"type.cashable": "CASHABLE", "type.promo": "PROMOTIONAL", "type.test": "TEST - NOT VALID",
		"duplicate": "DUPLICATE", "amount": "Amount",
		"handpay.title": "HANDPAY RECEIPT", "reason": "Reason", "attendant": "Attendant",
		"reason.largewin": "large win", "reason.cancelcredit": "cancelled credit", "reason.jackpot": "jackpot",
		"handpay.notice": "NOT A CASH VOUCHER - KEEP FOR YOUR RECORDS",
		"sig.attendant":  "Attendant signature", "sig.player": "Player signature",
		"jackpot.title": "MAGIC STARS JACKPOT PAYOUT FORM", "jackpot.id": "Jackpot hit", "won": "Won",
		"terms.venue": "Paid at the venue within 7 days", "terms.seat": "Paid at the operator's seat within 30 days",
		"jackpot.notice": "An incomplete form voids the claim.",
		"winner":         "WINNER", "staff": "VENUE STAFF",
		"f.name": "Full name", "f.birth": "Date of birth", "f.idno": "Identity document no.", "f.address": "Address",
		"f.signature": "Signature", "f.paiddate": "Date paid", "f.staffname": "Name",
	},
	Czech: {
		"voucher.title": "VÝPLATNÍ TIKET", "validation": "VALIDAČNÍ ČÍSLO", "date": "Datum", "time": "Čas",
		"ticket": "Tiket č.", "machine": "Terminál", "site": "Provozovna", "valid_until": "Platí do",
		"type.cashable": "HOTOVOSTNÍ", "type.promo": "PROPAGAČNÍ", "type.test": "TEST - NEPLATNÝ",
		"duplicate": "DUPLIKÁT", "amount": "Částka",
		"handpay.title": "DOKLAD O RUČNÍ VÝPLATĚ", "reason": "Důvod", "attendant": "Obsluha",
		"reason.largewin": "vysoká výhra", "reason.cancelcredit": "zrušený kredit", "reason.jackpot": "jackpot",
		"handpay.notice": "NENÍ VÝPLATNÍ TIKET - USCHOVEJTE SI DOKLAD",
		"sig.attendant":  "Podpis obsluhy", "sig.player": "Podpis hráče",
		"jackpot.title": "MAGIC STARS - FORMULÁŘ VÝPLATY JACKPOTU", "jackpot.id": "Výhra jackpotu", "won": "Vyhráno",
		"terms.venue": "Vyplácí provozovna do 7 dnů", "terms.seat": "Vyplácí sídlo provozovatele do 30 dnů",
		"jackpot.notice": "Neúplně vyplněný formulář znamená zánik nároku.",
		"winner":         "VÝHERCE", "staff": "OBSLUHA PROVOZOVNY",
		"f.name": "Jméno a příjmení", "f.birth": "Datum narození", "f.idno": "Číslo dokladu totožnosti", "f.address": "Adresa",
		"f.signature": "Podpis", "f.paiddate": "Datum výplaty", "f.staffname": "Jméno",
	},
	German: {
		"voucher.title": "AUSZAHLUNGSBELEG", "validation": "VALIDIERUNG", "date": "Datum", "time": "Uhrzeit",
		"ticket": "Beleg Nr.", "machine": "Gerät", "site": "Standort", "valid_until": "Gültig bis",
		"type.cashable": "BARGELD", "type.promo": "PROMOTION", "type.test": "TEST - UNGÜLTIG",
		"duplicate": "DUPLIKAT", "amount": "Betrag",
		"handpay.title": "HANDAUSZAHLUNGSBELEG", "reason": "Grund", "attendant": "Aufsicht",
		"reason.largewin": "Großgewinn", "reason.cancelcredit": "stornierter Kredit", "reason.jackpot": "Jackpot",
		"handpay.notice": "KEIN AUSZAHLUNGSBELEG - BITTE AUFBEWAHREN",
		"sig.attendant":  "Unterschrift Aufsicht", "sig.player": "Unterschrift Spieler",
		"jackpot.title": "MAGIC STARS JACKPOT-AUSZAHLUNGSFORMULAR", "jackpot.id": "Jackpot-Gewinn", "won": "Gewonnen",
		"terms.venue": "Auszahlung am Standort binnen 7 Tagen", "terms.seat": "Auszahlung am Sitz des Betreibers binnen 30 Tagen",
		"jackpot.notice": "Ein unvollständiges Formular macht den Anspruch ungültig.",
		"winner":         "GEWINNER", "staff": "PERSONAL",
		"f.name": "Vor- und Nachname", "f.birth": "Geburtsdatum", "f.idno": "Ausweisnummer", "f.address": "Adresse",
		"f.signature": "Unterschrift", "f.paiddate": "Auszahlungsdatum", "f.staffname": "Name",
	},
}

func label(l Lang, key string) string {
	if s, ok := labels[l][key]; ok {
		return s
	}
	return labels[English][key]
}

// DuplicateMark is what a reprinted voucher carries in its title, in the
// document's language.
func DuplicateMark(l Lang) string { return label(l, "duplicate") }
