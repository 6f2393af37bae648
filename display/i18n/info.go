package i18n

import (
	"maps"

	"github.com/polaris-vlt/polaris/engine"
	"github.com/polaris-vlt/polaris/firmware/view"
)

// The player's information pages: a title per page and a body per game
// and page ("info.<game>.<page>"), paragraphs split by "\n". Placeholders
// the renderer fills from the snapshot: {bet} {linebet} {rtp} {max}
// {mini} {minor} {major} {grand} {jackpot} {age} {helpline}.
// The rules are GAME_RULES.md's, with the project's decisions.

// SymbolKey is the catalogue key of a symbol's name in the win caption
// ("sym.wishstar.ELF"), or "" for one without (10, J, Q, K, A are the
// same in every language). Built once: a frame allocates nothing.
func SymbolKey(g engine.GameID, name string) string { return symKeys[string(g)+"."+name] }

var symKeys = map[string]string{}

// WaysKey is the catalogue key of "n ways" for n: the languages' plurals
// (en and de: one, other; cs: one, 2–4, other).
func WaysKey(lang string, n int) string {
	switch {
	case n == 1:
		return "win.way.one"
	case lang == "cs" && n >= 2 && n <= 4:
		return "win.way.few"
	}
	return "win.way.many"
}

// InfoKeys lists every key the information pages use, for each game's
// pages: the catalogue check asks for each in every language.
func InfoKeys() []string {
	ks := []string{"info.title", "info.hint", "info.rtp_note", "info.legal", "info.paytable.note", "info.full_screen"}
	for _, p := range view.AllInfoPages() {
		ks = append(ks, "info.page."+string(p))
	}
	for _, eg := range engine.Games() {
		g := eg.ID()
		ks = append(ks, "game."+string(g)) // the pages' title
		for _, p := range view.InfoPages(g) {
			ks = append(ks, InfoBody(g, p))
		}
	}
	return ks
}

// InfoBody is the catalogue key of a page's text.
func InfoBody(g engine.GameID, p view.InfoPage) string { return "info." + string(g) + "." + string(p) }

func init() {
	for lang, c := range infoCatalogues {
		maps.Copy(catalogues[lang], c)
	}
	for k := range catalogues["en"] {
		if len(k) > 4 && k[:4] == "sym." {
			symKeys[k[4:]] = k
		}
	}
}

var infoCatalogues = map[string]map[string]string{
	"en": {
		"info.title":            "Game rules",
		"info.hint":             "BET − / BET +  previous / next page      COLLECT  back to the game",
		"info.page.paytable":    "Pay table",
		"info.page.ways":        "243 ways and the wild",
		"info.page.free_spins":  "Free spins",
		"info.page.lock_spin":   "Lock & Spin and the jackpots",
		"info.page.lines":       "The 5 lines",
		"info.page.risk":        "Risk",
		"info.page.jackpot":     "The jackpot",
		"info.page.rtp":         "Return to player",
		"info.page.responsible": "Play responsibly",
		"info.paytable.note":    "All wins at your bet of {bet}.",
		"info.rtp_note":         "The return to player is the long-run average of the wins over a very large number of games. It is not the chance of winning the next game: every game is drawn anew, independent of earlier games.",
		"info.legal":            "Gambling can be addictive.",
		"info.full_screen":      "full screen: × 2",
		"win.way.one":           "WAY", "win.way.few": "WAYS", "win.way.many": "WAYS",
		"sym.wishstar.BELL": "BELLS", "sym.wishstar.CANE": "CANDY CANE", "sym.wishstar.CANDLE": "CANDLES",
		"sym.wishstar.TREE": "TREE", "sym.wishstar.ELF": "ELF", "sym.wishstar.BONUS": "BONUS", "sym.wishstar.STAR": "STAR",
		"sym.magicstars.STAR": "STARS", "sym.magicstars.MELON": "MELONS", "sym.magicstars.GRAPE": "GRAPES",
		"sym.magicstars.PLUM": "PLUMS", "sym.magicstars.ORANGE": "ORANGES", "sym.magicstars.RASPBERRY": "RASPBERRIES",
		"sym.magicstars.CHERRY": "CHERRIES", "sym.magicstars.LEMON": "LEMONS",
		"info.wishstar.paytable": "Wins per way, for 3, 4 or 5 matching symbols on adjacent reels from the left. Three Bonus symbols anywhere pay 1 × the bet and award 10 free spins.",
		"info.wishstar.ways": "A win is 3, 4 or 5 matching symbols on adjacent reels starting with the leftmost reel, in any row (243 ways). The win is the pay-table value times the number of ways.\n" +
			"Only the highest win per way counts; wins are paid after the spin has ended.\n" +
			"The wild (gift) appears only on reels 2 and 4 and substitutes for every symbol except Star and Bonus.\n" +
			"A reel full of wilds gives a bonus win: an instant win of up to 10 × the bet, the Mini, Minor or Major jackpot, or 10 free spins. Reels 2 and 4 both full of wilds give two bonus wins.",
		"info.wishstar.free_spins": "Three Bonus symbols anywhere on reels 1, 3 and 5 award 10 free spins and pay 1 × the bet.\n" +
			"In free spins every win is doubled, except bonus wins. Free spins are played at the bet that triggered them; more free spins can be won.\n" +
			"Stars can land in free spins and a Lock & Spin can start there: its star cash prizes are then doubled, its jackpots are paid at their fixed amounts.\n" +
			"A round plays at most 50 free spins; free spins awarded beyond are not played (about once in 116 million rounds).",
		"info.wishstar.lock_spin": "Six or more Stars anywhere start Lock & Spin, played at the bet that triggered it. Pay-table wins cannot be won during the feature.\n" +
			"The stars are locked and 3 spins are given. Every spin that lands a new star locks it and resets the spins to 3. The feature ends after 3 spins in a row without a new star, or when the Grand is won; then every prize on the screen is paid.\n" +
			"Each star carries a cash prize of up to 15 × the bet, or a jackpot. At your bet: Mini {mini}, Minor {minor}, Major {major}.\n" +
			"Grand {grand}: all 15 positions hold a star. The Grand is paid in addition to the prizes on the 15 stars.",
		"info.wishstar.rtp": "Theoretical return to player at your bet of {bet}: {rtp}.\n" +
			"Maximum win in one game at this bet: {max}.\n" +
			"Every outcome is drawn by the central system.",
		"info.wishstar.responsible": "Playing only from {age} years of age.\n" +
			"Gambling can be addictive. Set yourself a limit of time and money before you play, and stop when you reach it.\n" +
			"Help and advice: {helpline}",
		"info.magicstars.paytable": "3 matching symbols on a line, from left to right: a multiple of the line bet (the bet ÷ 5 = {linebet}). The wins of all lines are added. A full screen of lemons, cherries, raspberries or oranges doubles the win.",
		"info.magicstars.lines":    "5 fixed lines: the middle row, the top row, the bottom row and the two diagonals. A win is 3 matching symbols on a line. The number of lines never changes.",
		"info.magicstars.free_spins": "Some symbols carry a small star. When a reel shows a symbol with a star, the star above that reel lights up. Three stars lit in one game award free spins: 15, 20 or 25, drawn at random.\n" +
			"Free spins cost nothing and are played at the bet before the feature. Their wins add up in Win and go to Credit when the feature ends. More free spins can be won. During free spins every button is inactive.\n" +
			"A full screen of lemons, cherries, raspberries or oranges doubles the win in free spins too.",
		"info.magicstars.risk": "After a win in the standard game press RISK to try to double it. Choose RED or BLACK: the right colour doubles the win, the wrong one loses it. Once Risk is started, at least one card is played. START ends Risk and starts a new game; COLLECT moves the win to Credit.\n" +
			"Risk is not offered during free spins, for the win of a spin that triggered free spins, after a jackpot, for a win at or above the handpay limit (the attendant pays it), or when the doubled win would exceed {max}.",
		"info.magicstars.jackpot": "The Magic Stars jackpot grows with the games of all connected terminals. Now: {jackpot}.\n" +
			"Every game started with START can win it. The central system draws it at random, independent of the reels and of the bet.\n" +
			"A jackpot is not added to Credit: call the attendant. The staff pay it after checking your identity; you and the staff sign the jackpot payout form, and an incomplete form voids the claim. Up to 50 000 Kč it is paid at the venue within 7 days, larger jackpots at the operator's seat within 30 days.",
		"info.magicstars.rtp": "Theoretical return to player at your bet of {bet}: {rtp}.\n" +
			"Maximum win in one game, its free spins included: {max}.\n" +
			"Every outcome is drawn by the central lottery system.",
		"info.magicstars.responsible": "Playing only from {age} years of age.\n" +
			"Gambling can be addictive. Set yourself a limit of time and money before you play, and stop when you reach it.\n" +
			"Help and advice: {helpline}",
	},
	"de": {
		"info.title":            "Spielregeln",
		"info.hint":             "EINSATZ − / EINSATZ +  Seite zurück / weiter      AUSZAHLEN  zurück zum Spiel",
		"info.page.paytable":    "Gewinnplan",
		"info.page.ways":        "243 Gewinnwege und das Wild",
		"info.page.free_spins":  "Freispiele",
		"info.page.lock_spin":   "Lock & Spin und die Jackpots",
		"info.page.lines":       "Die 5 Linien",
		"info.page.risk":        "Risiko",
		"info.page.jackpot":     "Der Jackpot",
		"info.page.rtp":         "Auszahlungsquote",
		"info.page.responsible": "Verantwortungsvoll spielen",
		"info.paytable.note":    "Alle Gewinne bei Ihrem Einsatz von {bet}.",
		"info.rtp_note":         "Die Auszahlungsquote ist der langfristige Durchschnitt der Gewinne über eine sehr große Zahl von Spielen. Sie ist nicht die Gewinnchance des nächsten Spiels: jedes Spiel wird neu gezogen, unabhängig von früheren Spielen.",
		"info.legal":            "Glücksspiel kann süchtig machen.",
		"info.full_screen":      "voller Bildschirm: × 2",
		"win.way.one":           "WEG", "win.way.few": "WEGE", "win.way.many": "WEGE",
		"sym.wishstar.BELL": "GLOCKEN", "sym.wishstar.CANE": "ZUCKERSTANGE", "sym.wishstar.CANDLE": "KERZEN",
		"sym.wishstar.TREE": "CHRISTBAUM", "sym.wishstar.ELF": "ELF", "sym.wishstar.BONUS": "BONUS", "sym.wishstar.STAR": "STERN",
		"sym.magicstars.STAR": "STERNE", "sym.magicstars.MELON": "MELONEN", "sym.magicstars.GRAPE": "TRAUBEN",
		"sym.magicstars.PLUM": "PFLAUMEN", "sym.magicstars.ORANGE": "ORANGEN", "sym.magicstars.RASPBERRY": "HIMBEEREN",
		"sym.magicstars.CHERRY": "KIRSCHEN", "sym.magicstars.LEMON": "ZITRONEN",
		"info.wishstar.paytable": "Gewinne je Gewinnweg, für 3, 4 oder 5 gleiche Symbole auf benachbarten Walzen von links. Drei Bonus-Symbole beliebig zahlen 1 × den Einsatz und geben 10 Freispiele.",
		"info.wishstar.ways": "Ein Gewinn sind 3, 4 oder 5 gleiche Symbole auf benachbarten Walzen, beginnend mit der linken Walze, in beliebiger Reihe (243 Wege). Der Gewinn ist der Wert des Gewinnplans mal der Zahl der Wege.\n" +
			"Je Weg zählt nur der höchste Gewinn; Gewinne werden nach dem Ende der Drehung ausbezahlt.\n" +
			"Das Wild (Geschenk) erscheint nur auf den Walzen 2 und 4 und ersetzt jedes Symbol außer Stern und Bonus.\n" +
			"Eine Walze voller Wilds gibt einen Bonusgewinn: einen Sofortgewinn bis 10 × Einsatz, den Mini-, Minor- oder Major-Jackpot oder 10 Freispiele. Sind die Walzen 2 und 4 voller Wilds, gibt es zwei Bonusgewinne.",
		"info.wishstar.free_spins": "Drei Bonus-Symbole beliebig auf den Walzen 1, 3 und 5 geben 10 Freispiele und zahlen 1 × den Einsatz.\n" +
			"In Freispielen wird jeder Gewinn verdoppelt, außer Bonusgewinnen. Freispiele laufen mit dem auslösenden Einsatz; weitere Freispiele können gewonnen werden.\n" +
			"Auch in Freispielen können Sterne fallen und ein Lock & Spin beginnen: seine Geldpreise werden dann verdoppelt, seine Jackpots mit ihrem festen Betrag bezahlt.\n" +
			"Eine Runde spielt höchstens 50 Freispiele; darüber hinaus gewonnene werden nicht gespielt (etwa einmal in 116 Millionen Runden).",
		"info.wishstar.lock_spin": "Sechs oder mehr Sterne beliebig starten Lock & Spin mit dem auslösenden Einsatz. Während des Features gibt es keine Gewinne aus dem Gewinnplan.\n" +
			"Die Sterne werden festgehalten, es gibt 3 Drehungen. Jede Drehung mit einem neuen Stern hält ihn fest und setzt die Drehungen auf 3 zurück. Das Feature endet nach 3 Drehungen ohne neuen Stern oder mit dem Grand; dann werden alle Preise am Bildschirm ausbezahlt.\n" +
			"Jeder Stern trägt einen Geldpreis bis 15 × Einsatz oder einen Jackpot. Bei Ihrem Einsatz: Mini {mini}, Minor {minor}, Major {major}.\n" +
			"Grand {grand}: alle 15 Felder tragen einen Stern. Der Grand wird zusätzlich zu den Preisen der 15 Sterne bezahlt.",
		"info.wishstar.rtp": "Theoretische Auszahlungsquote bei Ihrem Einsatz von {bet}: {rtp}.\n" +
			"Höchstgewinn in einem Spiel bei diesem Einsatz: {max}.\n" +
			"Jedes Ergebnis wird vom zentralen System gezogen.",
		"info.wishstar.responsible": "Spielen erst ab {age} Jahren.\n" +
			"Glücksspiel kann süchtig machen. Setzen Sie sich vor dem Spiel ein Zeit- und Geldlimit und hören Sie auf, wenn Sie es erreichen.\n" +
			"Hilfe und Beratung: {helpline}",
		"info.magicstars.paytable": "3 gleiche Symbole auf einer Linie von links nach rechts: ein Vielfaches des Linieneinsatzes (Einsatz ÷ 5 = {linebet}). Die Gewinne aller Linien werden addiert. Ein voller Bildschirm aus Zitronen, Kirschen, Himbeeren oder Orangen verdoppelt den Gewinn.",
		"info.magicstars.lines":    "5 feste Linien: die mittlere, die obere und die untere Reihe und die zwei Diagonalen. Ein Gewinn sind 3 gleiche Symbole auf einer Linie. Die Zahl der Linien ändert sich nie.",
		"info.magicstars.free_spins": "Manche Symbole tragen einen kleinen Stern. Zeigt eine Walze ein Symbol mit Stern, leuchtet der Stern über ihr auf. Leuchten alle drei Sterne in einem Spiel, gibt es Freispiele: 15, 20 oder 25, zufällig gezogen.\n" +
			"Freispiele kosten nichts und laufen mit dem Einsatz vor dem Feature. Ihre Gewinne sammeln sich im Feld Gewinn und gehen am Ende in den Kredit. Weitere Freispiele können gewonnen werden. Während der Freispiele sind alle Tasten ohne Funktion.\n" +
			"Ein voller Bildschirm aus Zitronen, Kirschen, Himbeeren oder Orangen verdoppelt den Gewinn auch in Freispielen.",
		"info.magicstars.risk": "Nach einem Gewinn im Grundspiel können Sie ihn mit RISIKO zu verdoppeln versuchen. Wählen Sie ROT oder SCHWARZ: die richtige Farbe verdoppelt den Gewinn, die falsche verliert ihn. Einmal begonnen, wird mindestens eine Karte gespielt. START beendet Risiko und startet ein neues Spiel; AUSZAHLEN bucht den Gewinn in den Kredit.\n" +
			"Risiko gibt es nicht in Freispielen, für den Gewinn einer Drehung, die Freispiele auslöste, nach einem Jackpot, für einen Gewinn ab der Handauszahlungsgrenze (das Personal zahlt ihn aus) und wenn der verdoppelte Gewinn {max} übersteigen würde.",
		"info.magicstars.jackpot": "Der Magic-Stars-Jackpot wächst mit den Spielen aller verbundenen Terminals. Jetzt: {jackpot}.\n" +
			"Jedes mit START begonnene Spiel kann ihn gewinnen. Das zentrale System zieht ihn zufällig, unabhängig von den Walzen und vom Einsatz.\n" +
			"Ein Jackpot wird nicht dem Kredit gutgeschrieben: rufen Sie das Personal. Es zahlt ihn nach Prüfung Ihrer Identität aus; Sie und das Personal unterschreiben das Auszahlungsformular, ein unvollständiges Formular macht den Anspruch ungültig. Bis 50 000 Kč wird er in der Spielstätte binnen 7 Tagen bezahlt, größere Jackpots am Sitz des Betreibers binnen 30 Tagen.",
		"info.magicstars.rtp": "Theoretische Auszahlungsquote bei Ihrem Einsatz von {bet}: {rtp}.\n" +
			"Höchstgewinn in einem Spiel samt seinen Freispielen: {max}.\n" +
			"Jedes Ergebnis wird vom zentralen Lotteriesystem gezogen.",
		"info.magicstars.responsible": "Spielen erst ab {age} Jahren.\n" +
			"Glücksspiel kann süchtig machen. Setzen Sie sich vor dem Spiel ein Zeit- und Geldlimit und hören Sie auf, wenn Sie es erreichen.\n" +
			"Hilfe und Beratung: {helpline}",
	},
	"cs": {
		"info.title":            "Pravidla hry",
		"info.hint":             "SÁZKA − / SÁZKA +  předchozí / další strana      PŘIPSAT  zpět do hry",
		"info.page.paytable":    "Výherní tabulka",
		"info.page.ways":        "243 výherních cest a wild",
		"info.page.free_spins":  "Volné otáčky",
		"info.page.lock_spin":   "Lock & Spin a jackpoty",
		"info.page.lines":       "5 výherních linií",
		"info.page.risk":        "Riziko",
		"info.page.jackpot":     "Jackpot",
		"info.page.rtp":         "Výherní podíl",
		"info.page.responsible": "Hrajte zodpovědně",
		"info.paytable.note":    "Všechny výhry při vaší sázce {bet}.",
		"info.rtp_note":         "Výherní podíl je dlouhodobý průměr výher z velmi mnoha her. Není to šance na výhru v příští hře: každá hra se losuje znovu, nezávisle na předchozích hrách.",
		"info.legal":            "Ministerstvo financí varuje: Účastí na hazardní hře může vzniknout závislost!",
		"info.full_screen":      "celá obrazovka: × 2",
		"win.way.one":           "CESTA", "win.way.few": "CESTY", "win.way.many": "CEST",
		"sym.wishstar.BELL": "ZVONKY", "sym.wishstar.CANE": "CUKROVÁ HŮLKA", "sym.wishstar.CANDLE": "SVÍČKY",
		"sym.wishstar.TREE": "STROMEČEK", "sym.wishstar.ELF": "SKŘÍTEK", "sym.wishstar.BONUS": "BONUS", "sym.wishstar.STAR": "HVĚZDA",
		"sym.magicstars.STAR": "HVĚZDY", "sym.magicstars.MELON": "MELOUNY", "sym.magicstars.GRAPE": "HROZNY",
		"sym.magicstars.PLUM": "ŠVESTKY", "sym.magicstars.ORANGE": "POMERANČE", "sym.magicstars.RASPBERRY": "MALINY",
		"sym.magicstars.CHERRY": "TŘEŠNĚ", "sym.magicstars.LEMON": "CITRONY",
		"info.wishstar.paytable": "Výhry za jednu cestu, pro 3, 4 nebo 5 stejných symbolů na sousedních válcích zleva. Tři symboly Bonus kdekoli vyplácejí 1 × sázku a dávají 10 volných otáček.",
		"info.wishstar.ways": "Výhra jsou 3, 4 nebo 5 stejných symbolů na sousedních válcích od levého válce, v libovolné řadě (243 cest). Výhra je hodnota z tabulky krát počet cest.\n" +
			"Na každé cestě se počítá jen nejvyšší výhra; výhry se vyplácejí po skončení otáčky.\n" +
			"Wild (dárek) se objevuje jen na válcích 2 a 4 a nahrazuje každý symbol kromě Hvězdy a Bonusu.\n" +
			"Válec plný wildů dává bonusovou výhru: okamžitou výhru až 10 × sázka, jackpot Mini, Minor nebo Major, nebo 10 volných otáček. Plné válce 2 i 4 dávají dvě bonusové výhry.",
		"info.wishstar.free_spins": "Tři symboly Bonus kdekoli na válcích 1, 3 a 5 dávají 10 volných otáček a vyplácejí 1 × sázku.\n" +
			"Ve volných otáčkách se každá výhra zdvojnásobuje, kromě bonusových výher. Volné otáčky se hrají se sázkou, která je spustila; lze vyhrát další.\n" +
			"I ve volných otáčkách mohou padnout hvězdy a začít Lock & Spin: jeho peněžní ceny se pak zdvojnásobí, jeho jackpoty se vyplatí v pevné výši.\n" +
			"Kolo hraje nejvýše 50 volných otáček; další přiznané se nehrají (asi jednou za 116 milionů kol).",
		"info.wishstar.lock_spin": "Šest a více hvězd kdekoli spouští Lock & Spin se sázkou, která ho spustila. Během funkce nelze vyhrát výhry z tabulky.\n" +
			"Hvězdy se zamknou a hráč dostane 3 otáčky. Každá otáčka s novou hvězdou ji zamkne a vrátí počet otáček na 3. Funkce končí po 3 otáčkách bez nové hvězdy nebo výhrou Grand; pak se vyplatí všechny ceny na obrazovce.\n" +
			"Každá hvězda nese peněžní cenu až 15 × sázka nebo jackpot. Při vaší sázce: Mini {mini}, Minor {minor}, Major {major}.\n" +
			"Grand {grand}: všech 15 pozic nese hvězdu. Grand se vyplácí navíc k cenám na 15 hvězdách.",
		"info.wishstar.rtp": "Teoretický výherní podíl při vaší sázce {bet}: {rtp}.\n" +
			"Nejvyšší výhra v jedné hře při této sázce: {max}.\n" +
			"Každý výsledek losuje centrální systém.",
		"info.wishstar.responsible": "Hra je povolena jen od {age} let.\n" +
			"Hazardní hra může vést k závislosti. Před hrou si stanovte limit času a peněz a skončete, když ho dosáhnete.\n" +
			"Pomoc a poradenství: {helpline}",
		"info.magicstars.paytable": "3 stejné symboly na linii zleva doprava: násobek sázky na linii (sázka ÷ 5 = {linebet}). Výhry všech linií se sčítají. Celá obrazovka citronů, třešní, malin nebo pomerančů výhru zdvojnásobí.",
		"info.magicstars.lines":    "5 pevných linií: prostřední, horní a dolní řada a dvě úhlopříčky. Výhra jsou 3 stejné symboly na linii. Počet linií se nikdy nemění.",
		"info.magicstars.free_spins": "Některé symboly nesou malou hvězdičku. Když válec ukáže symbol s hvězdičkou, rozsvítí se hvězda nad ním. Rozsvítí-li se v jedné hře všechny tři hvězdy, hráč získá volné otáčky: 15, 20 nebo 25, vylosované náhodně.\n" +
			"Volné otáčky nic nestojí a hrají se se sázkou před funkcí. Jejich výhry se sčítají v poli Výhra a po skončení se připíší do kreditu. Lze vyhrát další volné otáčky. Během volných otáček jsou všechna tlačítka neaktivní.\n" +
			"Celá obrazovka citronů, třešní, malin nebo pomerančů zdvojnásobí výhru i ve volných otáčkách.",
		"info.magicstars.risk": "Po výhře ve standardní hře můžete tlačítkem RISK zkusit výhru zdvojnásobit. Zvolte ČERVENOU nebo ČERNOU: správná barva výhru zdvojnásobí, špatná ji ztratí. Po spuštění se hraje alespoň jedna karta. START ukončí riziko a spustí novou hru; PŘIPSAT převede výhru do kreditu.\n" +
			"Riziko není nabízeno ve volných otáčkách, pro výhru otáčky, která spustila volné otáčky, po jackpotu, pro výhru od limitu ruční výplaty (vyplatí ji obsluha) a když by zdvojená výhra přesáhla {max}.",
		"info.magicstars.jackpot": "Jackpot Magic Stars roste se hrami všech připojených terminálů. Nyní: {jackpot}.\n" +
			"Může ho vyhrát každá hra spuštěná tlačítkem START. Losuje ho náhodně centrální systém, nezávisle na válcích i na sázce.\n" +
			"Jackpot se nepřipisuje do kreditu: zavolejte obsluhu. Obsluha ho vyplatí po ověření vaší totožnosti; vy i obsluha podepíšete formulář o výplatě jackpotu, neúplný formulář nárok ruší. Do 50 000 Kč se vyplácí v provozovně do 7 dnů, vyšší jackpoty v sídle provozovatele do 30 dnů.",
		"info.magicstars.rtp": "Teoretický výherní podíl při vaší sázce {bet}: {rtp}.\n" +
			"Nejvyšší výhra v jedné hře včetně jejích volných otáček: {max}.\n" +
			"Každý výsledek losuje centrální loterní systém.",
		"info.magicstars.responsible": "Hra je povolena jen od {age} let.\n" +
			"Hazardní hra může vést k závislosti. Před hrou si stanovte limit času a peněz a skončete, když ho dosáhnete.\n" +
			"Pomoc a poradenství: {helpline}",
	},
}
