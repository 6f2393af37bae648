package cabinet

import (
	"context"

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
	t := &c.menus.tech
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
		doc := c.auditTicket(by)
		t.audit = auditPrinting
		c.logEvent("audit_ticket", by, "printing", 0)
		c.async(func(context.Context) Event {
			_, err := p.Print(doc)
			return techReply{apply: func(c *Cabinet) {
				if err != nil {
					c.menus.tech.audit = err.Error()
					c.logEvent("audit_ticket", "cabinet", "refused by the printer: "+err.Error(), 0)
				} else {
					c.menus.tech.audit = auditPrinted
					c.logEvent("audit_ticket", "cabinet", "printed", 0)
				}
				if c.menus.menu != nil && c.menus.test == nil {
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

func (c *Cabinet) auditTicket(by string) document.AuditTicket {
	m, _ := c.led.Meters(ledger.ScopeCabinet)
	a := document.AuditTicket{Lang: document.Lang(c.cfg.Market.Language), Site: c.cfg.Site.Name, SiteID: c.cfg.Site.ID,
		Machine: c.cfg.ID, Printed: c.wall(), Currency: c.docCurrency(), Version: c.cfg.Software.Version,
		Software: c.cfg.Software.ID, By: by}
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
