// Package tcl drives FutureLogic/JCM (GEN2U, GEN5) and Nanoptix ticket
// printers in TCL (reference/protocols.md §3.2): a pure codec (commands,
// field escaping, the 29-byte status frame and its five flag bytes, a
// resynchronising frame splitter), and a driver that polls with ENQ,
// accepts unsolicited status frames, prints documents through printer-
// resident or downloaded templates (or line mode for documents that carry
// no validation number) and reports the print lifecycle as typed events.
package tcl
