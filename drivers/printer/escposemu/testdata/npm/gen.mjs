// Writes receipts from three public ESC/POS encoders to the directory given
// as the first argument, with a JSON manifest of what each one must show:
// the barcodes and QR codes (symbology and data) and text that must be on
// the paper. The ESC/POS emulator's test reads them (escposemu/npm_test.go).
import { writeFileSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';
import EscPosEncoder from 'esc-pos-encoder';
import ReceiptPrinterEncoder from '@point-of-sale/receipt-printer-encoder';
import thermal from 'node-thermal-printer';

const out = process.argv[2];
if (!out) throw new Error('usage: node gen.mjs OUTDIR');
mkdirSync(out, { recursive: true });
const manifest = [];
const save = (name, bytes, expect) => {
  writeFileSync(join(out, name + '.bin'), Buffer.from(bytes));
  manifest.push({ name, ...expect });
};

const expect = {
  text: ['POLARIS TEST', 'Bold run', 'Total 1234 CZK'],
  codes: [
    { type: 'QR-Code', data: 'https://polaris.example/v/001234567890123456' },
    { type: 'CODE-128', data: 'POLARIS-128' },
    { type: 'CODE-39', data: 'POLARIS39' },
    { type: 'EAN-13', data: '4006381333931' },
    { type: 'I2/5', data: '12345678' },
  ],
};

// esc-pos-encoder 3.0.0
{
  const e = new EscPosEncoder();
  const b = e.initialize().codepage('cp437')
    .align('center').size('normal').bold(true).line('POLARIS TEST').bold(false)
    .align('left').text('Plain then ').bold(true).text('Bold run').bold(false).newline()
    .underline(true).line('underlined').underline(false)
    .invert(true).line('inverted').invert(false)
    .line('Total 1234 CZK')
    .qrcode('https://polaris.example/v/001234567890123456', 2, 6, 'm')
    .barcode('{BPOLARIS-128', 'code128', 60)
    .barcode('POLARIS39', 'code39', 60)
    .barcode('400638133393', 'ean13', 60)
    .barcode('12345678', 'itf', 60)
    .newline().newline().cut('partial').encode();
  save('esc-pos-encoder', b, expect);
}

// @point-of-sale/receipt-printer-encoder 4.0.1
{
  const e = new ReceiptPrinterEncoder({ language: 'esc-pos', columns: 48 });
  const b = e.initialize().codepage('cp437')
    .align('center').bold(true).line('POLARIS TEST').bold(false)
    .align('left').text('Plain then ').bold(true).text('Bold run').bold(false).newline()
    .underline(true).line('underlined').underline(false)
    .line('Total 1234 CZK')
    .line('012345678901234567890123456789012345678901234567')
    .qrcode('https://polaris.example/v/001234567890123456', { model: 2, size: 6, errorlevel: 'm' })
    .barcode('{BPOLARIS-128', 'code128', { height: 60, width: 2, text: true })
    .barcode('POLARIS39', 'code39', { height: 60, width: 2, text: true })
    .barcode('400638133393', 'ean13', { height: 60, width: 2, text: true })
    .barcode('12345678', 'itf', { height: 60, width: 2, text: true })
    .newline().cut('partial').encode();
  save('receipt-printer-encoder', b, { ...expect, text: [...expect.text, '012345678901234567890123456789012345678901234567'] });
}

// node-thermal-printer 4.6.1 (Epson driver; the buffer, no printer)
{
  const p = new thermal.printer({ type: thermal.types.EPSON, interface: 'tcp://127.0.0.1:1', width: 48 });
  p.alignCenter(); p.bold(true); p.println('POLARIS TEST'); p.bold(false);
  p.alignLeft(); p.print('Plain then '); p.bold(true); p.print('Bold run'); p.bold(false); p.newLine();
  p.setTextDoubleHeight(); p.println('Total 1234 CZK'); p.setTextNormal();
  p.printQR('https://polaris.example/v/001234567890123456', { cellSize: 6, correction: 'M', model: 2 });
  p.code128('POLARIS-128', { height: 60, width: 2, text: 2 });
  p.printBarcode('POLARIS39', 69, { height: 60, width: 2, hriPos: 2 });
  p.printBarcode('400638133393', 67, { height: 60, width: 2, hriPos: 2 });
  p.printBarcode('12345678', 70, { height: 60, width: 2, hriPos: 2 });
  p.cut();
  save('node-thermal-printer', p.getBuffer(), expect);
}

writeFileSync(join(out, 'manifest.json'), JSON.stringify(manifest, null, 2) + '\n');
