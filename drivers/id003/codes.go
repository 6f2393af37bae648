package id003

import "fmt"

// Command codes, controller → acceptor (protocols.md §1.3).
const (
	CmdStatusRequest     byte = 0x11
	CmdAck               byte = 0x50 // after VEND VALID; the acceptor does not answer it
	CmdReset             byte = 0x40
	CmdStack1            byte = 0x41
	CmdStack2            byte = 0x42
	CmdReturn            byte = 0x43
	CmdHold              byte = 0x44
	CmdWait              byte = 0x45
	CmdProgramSignature  byte = 0xDC
	CmdEnableDenom       byte = 0xC0 // 2 bytes, bit i ↔ escrow code 0x61+i, 1 = disabled
	CmdSecurity          byte = 0xC1 // 2 bytes, 1 = high security
	CmdCommunicationMode byte = 0xC2 // 1 byte, 0 = polling
	CmdInhibit           byte = 0xC3 // 1 byte, 0 = accept, 1 = inhibited
	CmdDirection         byte = 0xC4 // 1 byte, 1 bits inhibit a direction
	CmdOptionalFunction  byte = 0xC5 // 2 bytes
	CmdBarcodeFunction   byte = 0xC6 // 2 bytes: type, length
	CmdBarInhibit        byte = 0xC7 // 1 byte: bit0 inhibits notes, bit1 tickets
	// CmdReadSetting+i reads back the setting CmdEnableDenom+i (0x80–0x87).
	CmdReadSetting           byte = 0x80
	CmdVersionRequest        byte = 0x88
	CmdBootVersionRequest    byte = 0x89
	CmdCurrencyAssignRequest byte = 0x8A
)

// Status codes, acceptor → controller (protocols.md §1.4).
const (
	StIdling                byte = 0x11 // ENABLE / IDLING
	StAccepting             byte = 0x12
	StEscrow                byte = 0x13 // data: escrow code, or 0x6F + ticket digits
	StStacking              byte = 0x14
	StVendValid             byte = 0x15 // optional data byte on some firmware
	StStacked               byte = 0x16
	StRejecting             byte = 0x17 // data: reject code
	StReturning             byte = 0x18
	StHolding               byte = 0x19
	StDisable               byte = 0x1A // DISABLE (INHIBIT)
	StInitialize            byte = 0x1B
	StPowerUp               byte = 0x40
	StPowerUpBillInAcceptor byte = 0x41
	StPowerUpBillInStacker  byte = 0x42
	StStackerFull           byte = 0x43
	StStackerOpen           byte = 0x44
	StAcceptorJam           byte = 0x45
	StStackerJam            byte = 0x46
	StPause                 byte = 0x47
	StCheated               byte = 0x48
	StFailure               byte = 0x49 // data: failure code
	StCommunicationError    byte = 0x4A
	StInvalidCommand        byte = 0x4B
	StAck                   byte = 0x50
	// StExtension starts a frame of JCM's bill-recycler extension: F0, the
	// recycler unit (RecyclerUnit, 20), a sub-code and its data. Recycler
	// units send it in answer to STATUS REQUEST.
	StExtension byte = 0xF0
)

// RecyclerUnit is the unit byte of recycler-extension frames (F0 20 …).
const RecyclerUnit byte = 0x20

// TicketEscrowCode starts the ESCROW data of a barcode ticket.
const TicketEscrowCode byte = 0x6F

var statusNames = map[byte]string{
	StIdling: "IDLING", StAccepting: "ACCEPTING", StEscrow: "ESCROW", StStacking: "STACKING",
	StVendValid: "VEND VALID", StStacked: "STACKED", StRejecting: "REJECTING",
	StReturning: "RETURNING", StHolding: "HOLDING", StDisable: "DISABLE",
	StInitialize: "INITIALIZE", StPowerUp: "POWER UP",
	StPowerUpBillInAcceptor: "POWER UP WITH BILL IN ACCEPTOR",
	StPowerUpBillInStacker:  "POWER UP WITH BILL IN STACKER",
	StStackerFull:           "STACKER FULL", StStackerOpen: "STACKER OPEN",
	StAcceptorJam: "JAM IN ACCEPTOR", StStackerJam: "JAM IN STACKER", StPause: "PAUSE",
	StCheated: "CHEATED", StFailure: "FAILURE", StCommunicationError: "COMMUNICATION ERROR",
	StInvalidCommand: "INVALID COMMAND", StAck: "ACK", StExtension: "RECYCLER EXTENSION",
}

var commandNames = map[byte]string{
	CmdStatusRequest: "STATUS REQUEST", CmdAck: "ACK", CmdReset: "RESET",
	CmdStack1: "STACK-1", CmdStack2: "STACK-2", CmdReturn: "RETURN", CmdHold: "HOLD",
	CmdWait: "WAIT", CmdProgramSignature: "PROGRAM SIGNATURE",
	CmdEnableDenom: "ENABLE/DISABLE DENOMINATION", CmdSecurity: "SECURITY DENOMINATION",
	CmdCommunicationMode: "COMMUNICATION MODE", CmdInhibit: "INHIBIT ACCEPTOR",
	CmdDirection: "DIRECTION", CmdOptionalFunction: "OPTIONAL FUNCTION",
	CmdBarcodeFunction: "BARCODE FUNCTION", CmdBarInhibit: "BAR INHIBIT",
	CmdVersionRequest: "VERSION REQUEST", CmdBootVersionRequest: "BOOT VERSION REQUEST",
	CmdCurrencyAssignRequest: "CURRENCY ASSIGN REQUEST",
}

// StatusName names an acceptor → controller code.
func StatusName(c byte) string {
	if n, ok := statusNames[c]; ok {
		return n
	}
	if c >= CmdEnableDenom && c <= CmdBarInhibit {
		return "echo " + commandNames[c]
	}
	if c >= CmdReadSetting && c <= CmdCurrencyAssignRequest {
		return "reply to " + CommandName(c)
	}
	return fmt.Sprintf("unknown status %02X", c)
}

// CommandName names a controller → acceptor code.
func CommandName(c byte) string {
	if n, ok := commandNames[c]; ok {
		return n
	}
	if c >= CmdReadSetting && c < CmdReadSetting+8 {
		return "READ " + commandNames[c-CmdReadSetting+CmdEnableDenom]
	}
	return fmt.Sprintf("unknown command %02X", c)
}

// RejectCode is the data of REJECTING (0x17).
type RejectCode byte

// Reject codes (protocols.md §1.4).
const (
	RejectInsertion         RejectCode = 0x71
	RejectMagneticPattern   RejectCode = 0x72
	RejectDocumentInHead    RejectCode = 0x73
	RejectDataAmplitude     RejectCode = 0x74
	RejectFeed              RejectCode = 0x75
	RejectDenomAssessing    RejectCode = 0x76
	RejectPhotoPattern      RejectCode = 0x77
	RejectPhotoLevel        RejectCode = 0x78
	RejectInhibited         RejectCode = 0x79
	RejectReserved          RejectCode = 0x7A
	RejectOperation         RejectCode = 0x7B
	RejectWrongTime         RejectCode = 0x7C
	RejectLength            RejectCode = 0x7D
	RejectColourPattern     RejectCode = 0x7E
	RejectBarcodeNotSet     RejectCode = 0x91
	RejectUnknownBarcode    RejectCode = 0x92
	RejectBarcodeCharCount  RejectCode = 0x93
	RejectBarcodeStartBit   RejectCode = 0x94
	RejectBarcodeStopBit    RejectCode = 0x95
	RejectBarcodeNotSet2    RejectCode = 0x96
	RejectMultipleDocuments RejectCode = 0x98
	RejectTicketUpsideDown  RejectCode = 0x9B
	RejectTicketLength      RejectCode = 0x9D
)

var rejectNames = map[RejectCode]string{
	RejectInsertion: "insertion error", RejectMagneticPattern: "magnetic pattern error",
	RejectDocumentInHead: "document left in head", RejectDataAmplitude: "data amplitude error",
	RejectFeed: "feed error", RejectDenomAssessing: "denomination assessing error",
	RejectPhotoPattern: "photo pattern error", RejectPhotoLevel: "photo level error",
	RejectInhibited: "inhibited", RejectReserved: "reserved", RejectOperation: "operation error",
	RejectWrongTime: "document in transport or stacker at the wrong time",
	RejectLength:    "length error", RejectColourPattern: "colour pattern error",
	RejectBarcodeNotSet: "barcode function not set", RejectUnknownBarcode: "unknown barcode",
	RejectBarcodeCharCount: "barcode character-count error", RejectBarcodeStartBit: "barcode start-bit error",
	RejectBarcodeStopBit: "barcode stop-bit error", RejectBarcodeNotSet2: "barcode not set",
	RejectMultipleDocuments: "multiple documents", RejectTicketUpsideDown: "ticket inserted upside down",
	RejectTicketLength: "ticket length error",
}

func (r RejectCode) String() string {
	if n, ok := rejectNames[r]; ok {
		return fmt.Sprintf("%s (%02X)", n, byte(r))
	}
	return fmt.Sprintf("unknown reject code %02X", byte(r))
}

// FailureCode is the data of FAILURE (0x49).
type FailureCode byte

// Failure codes (protocols.md §1.4).
const (
	FailStackerMotor        FailureCode = 0xA2
	FailTransportMotorSpeed FailureCode = 0xA5
	FailTransportMotor      FailureCode = 0xA6
	FailAligningMotor       FailureCode = 0xA7
	FailCashBoxNotReady     FailureCode = 0xAB
	FailOpticalSensor       FailureCode = 0xAC
	FailMagneticSensor      FailureCode = 0xAD
	FailHeadRemoved         FailureCode = 0xAF
	FailBootROM             FailureCode = 0xB0
	FailExternalROM         FailureCode = 0xB1
	FailROM                 FailureCode = 0xB2
	FailExternalROMWrite    FailureCode = 0xB3
)

var failureNames = map[FailureCode]string{
	FailStackerMotor: "stacker motor", FailTransportMotorSpeed: "transport motor speed",
	FailTransportMotor: "transport motor", FailAligningMotor: "aligning motor",
	FailCashBoxNotReady: "cash box not ready", FailOpticalSensor: "optical sensor",
	FailMagneticSensor: "magnetic sensor", FailHeadRemoved: "validator head removed",
	FailBootROM: "boot ROM", FailExternalROM: "external ROM", FailROM: "ROM",
	FailExternalROMWrite: "external ROM write",
}

func (f FailureCode) String() string {
	if n, ok := failureNames[f]; ok {
		return fmt.Sprintf("%s (%02X)", n, byte(f))
	}
	return fmt.Sprintf("unknown failure code %02X", byte(f))
}
