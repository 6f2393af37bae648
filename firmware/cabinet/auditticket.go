package cabinet

import (
	"context"
	"time"

	"github.com/polaris-vlt/polaris/drivers/printer/document"
	"github.com/polaris-vlt/polaris/firmware/ledger"
	"github.com/polaris-vlt/polaris/firmware/view"
)

// The audit ticket: Auto on a page of the technician's or attendant's
// menu (Collect is the attendant's handpay reprint) prints the cabinet's meters with its identity, the software and the
// time (document.AuditTicket). It is no money and changes nothing; the
// request and the printer's answer are logged.

// printAudit sends the audit ticket to the printer off the loop.
func (c *Cabinet) printAudit() {
	t := &c.tech
	if t.audit == auditPrinting {
		return
	}
	by := "attendant"
	if c.cond.keys["technician"] {
		by = "technician"
	}
	if p := c.cfg.Printer; p == nil {
		t.audit = "no printer"
	} else {
		m, _ := c.led.Meters(ledger.ScopeCabinet)
		doc := c.paper.audit(m, c.cfg.Software, by, c.wall())
		t.audit = auditPrinting
		c.logEvent("audit_ticket", by, "printing", 0)
		c.loop.async(func(context.Context) Event {
			_, err := p.Print(doc)
			return techReply{apply: func(c *Cabinet) {
				if err != nil {
					c.tech.audit = err.Error()
					c.logEvent("audit_ticket", "cabinet", "refused by the printer: "+err.Error(), 0)
				} else {
					c.tech.audit = auditPrinted
					c.logEvent("audit_ticket", "cabinet", "printed", 0)
				}
				if c.menus.menu != nil && c.test == nil {
					c.showMenu()
				}
			}}
		})
	}
	c.showMenu()
}

const (
	auditPrinting = "printing"
	auditPrinted  = "printed"
)

// audit is the audit ticket of the cabinet's meters m, running sw,
// printed for by at now.
func (p paper) audit(m map[ledger.Meter]int64, sw Software, by string, now time.Time) document.AuditTicket {
	a := document.AuditTicket{Lang: document.Lang(p.market.Language), Site: p.site.Name, SiteID: p.site.ID,
		Machine: p.id, Printed: now, Currency: p.market.Currency, Version: sw.Version,
		Software: sw.ID, By: by}
	for _, k := range ledger.CabinetMeters {
		a.Meters = append(a.Meters, document.AuditMeter{Name: string(k), Value: m[k], Money: !countMeters[k]})
	}
	return a
}

const menuAuditTicket = "menu.audit_ticket"

// auditTicketPage is the last page of both keys' menus: what the ticket
// holds and the last one's outcome (Auto prints it from any page).
func auditTicketPage(s pageSource) *view.MenuPage {
	p := &view.MenuPage{Title: menuAuditTicket, Lines: []view.MenuLine{view.Line("menu.audit_ticket.holds"), view.Line("menu.audit_ticket.collect")}}
	switch s.tech.audit {
	case "":
	case auditPrinting:
		p.Lines = append(p.Lines, view.Line("menu.audit_ticket.state", view.Key("menu.audit_ticket.printing")))
	case auditPrinted:
		p.Lines = append(p.Lines, view.Line("menu.audit_ticket.state", view.Key("docres.printed")))
	default:
		p.Lines = append(p.Lines, view.Line("menu.audit_ticket.state", view.Text(s.tech.audit)))
	}
	return p
}
