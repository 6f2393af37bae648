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
		"audit.title": "AUDIT TICKET", "audit.version": "Software version", "audit.software": "Software id (manifest digest)",
		"audit.meters": "METERS", "audit.by": "Printed by", "audit.notice": "METER READING - NOT A CASH VOUCHER",
		"by.technician": "technician", "by.attendant": "attendant",
		"meter.coin_in": "Coin in", "meter.coin_out": "Coin out", "meter.games_played": "Games played", "meter.games_won": "Games won",
		"meter.handpay_win": "Handpay wins", "meter.handpay_to_credit": "Handpays to credit", "meter.handpay_cancelled_credit": "Cancelled credit",
		"meter.jackpot_attendant": "Jackpots paid", "meter.bills_in_value": "Notes in", "meter.bills_in_count": "Notes in (count)",
		"meter.tickets_in_value": "Tickets in", "meter.tickets_in_count": "Tickets in (count)", "meter.tickets_out_value": "Tickets out",
		"meter.tickets_out_count": "Tickets out (count)", "meter.total_drop": "Total drop", "meter.risk_wagered": "Risk wagered",
		"meter.risk_won": "Risk won", "meter.wagers_refunded": "Wagers refunded", "meter.door_opens": "Door openings",
		"meter.power_ups": "Power-ups", "meter.ram_clears": "RAM clears",
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
		"audit.title": "AUDITNÍ TIKET", "audit.version": "Verze softwaru", "audit.software": "ID softwaru (otisk manifestu)",
		"audit.meters": "POČITADLA", "audit.by": "Vytiskl", "audit.notice": "STAV POČITADEL - NENÍ VÝPLATNÍ TIKET",
		"by.technician": "technik", "by.attendant": "obsluha",
		"meter.coin_in": "Vsazeno", "meter.coin_out": "Vyhráno", "meter.games_played": "Odehrané hry", "meter.games_won": "Vyhrané hry",
		"meter.handpay_win": "Ruční výplaty výher", "meter.handpay_to_credit": "Ruční výplaty do kreditu", "meter.handpay_cancelled_credit": "Zrušený kredit",
		"meter.jackpot_attendant": "Vyplacené jackpoty", "meter.bills_in_value": "Bankovky", "meter.bills_in_count": "Bankovky (počet)",
		"meter.tickets_in_value": "Tikety přijaté", "meter.tickets_in_count": "Tikety přijaté (počet)", "meter.tickets_out_value": "Tikety vydané",
		"meter.tickets_out_count": "Tikety vydané (počet)", "meter.total_drop": "Celkem do pokladny", "meter.risk_wagered": "Vsazeno v riziku",
		"meter.risk_won": "Vyhráno v riziku", "meter.wagers_refunded": "Vrácené sázky", "meter.door_opens": "Otevření dvířek",
		"meter.power_ups": "Zapnutí", "meter.ram_clears": "Vymazání paměti",
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
		"audit.title": "ZÄHLERSTANDSBELEG", "audit.version": "Softwareversion", "audit.software": "Software-ID (Manifest-Prüfsumme)",
		"audit.meters": "ZÄHLER", "audit.by": "Gedruckt von", "audit.notice": "ZÄHLERSTAND - KEIN AUSZAHLUNGSBELEG",
		"by.technician": "Techniker", "by.attendant": "Aufsicht",
		"meter.coin_in": "Einsätze", "meter.coin_out": "Gewinne", "meter.games_played": "Gespielte Spiele", "meter.games_won": "Gewonnene Spiele",
		"meter.handpay_win": "Handauszahlungen", "meter.handpay_to_credit": "Handauszahlungen auf Kredit", "meter.handpay_cancelled_credit": "Stornierter Kredit",
		"meter.jackpot_attendant": "Ausgezahlte Jackpots", "meter.bills_in_value": "Banknoten", "meter.bills_in_count": "Banknoten (Anzahl)",
		"meter.tickets_in_value": "Tickets ein", "meter.tickets_in_count": "Tickets ein (Anzahl)", "meter.tickets_out_value": "Tickets aus",
		"meter.tickets_out_count": "Tickets aus (Anzahl)", "meter.total_drop": "Kassenlade gesamt", "meter.risk_wagered": "Risiko-Einsätze",
		"meter.risk_won": "Risiko-Gewinne", "meter.wagers_refunded": "Erstattete Einsätze", "meter.door_opens": "Türöffnungen",
		"meter.power_ups": "Einschaltungen", "meter.ram_clears": "Speicherlöschungen",
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
