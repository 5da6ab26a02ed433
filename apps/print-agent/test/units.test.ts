import { describe, expect, it } from 'vitest';
import { parseConfig } from '../src/config.ts';
import { parseDefault, parseDevices, parsePrinters } from '../src/cups.ts';
import { lpOptions } from '../src/printing.ts';
import { matchPrinter, toJob } from '../src/qz.ts';
import { originAllowed } from '../src/server.ts';

describe('lpstat output (C locale)', () => {
  it('reads enabled and disabled queues, skipping the reason lines under a disabled one', () => {
    const out = [
      'printer Zebra_ZD420 is idle.  enabled since Tue Nov 24 09:35:23 2026',
      'printer Office now printing Office-12.  enabled since Tue Nov 24 09:35:23 2026',
      'printer Broken disabled since Tue Nov 24 09:35:23 2026 -',
      '\tPaused by the administrator',
      'printer Offline_printer is idle.  enabled since Tue Nov 24 09:35:23 2026',
      '',
    ].join('\n');
    expect(parsePrinters(out)).toEqual([
      { name: 'Zebra_ZD420', enabled: true },
      { name: 'Office', enabled: true },
      { name: 'Broken', enabled: false },
      { name: 'Offline_printer', enabled: true },
    ]);
    expect(parsePrinters('')).toEqual([]);
  });

  it('reads the default destination and the device URIs', () => {
    expect(parseDefault('system default destination: Zebra_ZD420\n')).toBe('Zebra_ZD420');
    expect(parseDefault('no system default destination\n')).toBeNull();
    expect(parseDevices('device for Zebra: usb://Zebra/ZD420?serial=1\ndevice for PDF: cups-pdf:/\n')).toEqual(
      new Map([
        ['Zebra', 'usb://Zebra/ZD420?serial=1'],
        ['PDF', 'cups-pdf:/'],
      ]),
    );
  });
});

describe('print options', () => {
  const pdf = Buffer.from('%PDF-1.4\n').toString('base64');
  const data = [{ type: 'pixel', format: 'pdf', flavor: 'base64', data: pdf }];

  it('converts QZ units to lp options: size in mm, margins in points, collated copies', async () => {
    const job = await toJob({
      printer: { name: 'Zebra' },
      options: { units: 'in', size: { width: 4, height: 6 }, margins: 0.25, copies: 2, orientation: 'landscape' },
      data,
    });
    expect(lpOptions(job)).toEqual([
      '-t', 'print-agent',
      '-n', '2', '-o', 'collate=true',
      '-o', 'media=Custom.101.6x152.4mm',
      '-o', 'page-top=18', '-o', 'page-right=18', '-o', 'page-bottom=18', '-o', 'page-left=18',
      '-o', 'orientation-requested=4',
      '-o', 'fit-to-page',
    ]); // prettier-ignore
    const cm = await toJob({
      printer: 'Zebra',
      options: { units: 'cm', size: { width: 10, height: 15 }, scaleContent: false },
      data,
    });
    expect(lpOptions(cm)).toEqual(['-t', 'print-agent', '-o', 'media=Custom.100x150mm']);
  });

  it('refuses what it cannot print with the reason', async () => {
    await expect(toJob({ printer: 'Z', data: [] })).rejects.toThrow('Invalid print params: data:');
    await expect(toJob({ printer: 'Z', options: { units: 'pt' }, data })).rejects.toThrow('options.units');
    await expect(toJob({ printer: 'Z', data: [{ type: 'pixel', format: 'html', data: '<p>' }] })).rejects.toThrow(
      'only PDFs are printed',
    );
  });
});

describe('matching and configuration', () => {
  it('matches a printer as QZ Tray does: exact, then ignoring case, then by part', () => {
    const names = ['zebra-2', 'Zebra', 'ZEBRA', 'Office Laser'];
    expect(matchPrinter(names, 'ZEBRA')).toBe('ZEBRA');
    expect(matchPrinter(names, 'zebra')).toBe('Zebra');
    expect(matchPrinter(names, 'ebra-')).toBe('zebra-2');
    expect(matchPrinter(names, 'laser')).toBe('Office Laser');
    expect(matchPrinter(names, 'nope')).toBeUndefined();
  });

  it('checks origins exactly (scheme, host and port)', () => {
    const c = parseConfig({ PRINT_AGENT_ORIGINS: 'https://console.example.com, http://localhost:8080' });
    expect(c.origins).toEqual(['https://console.example.com', 'http://localhost:8080']);
    expect(originAllowed(c, 'https://console.example.com')).toBe(true);
    expect(originAllowed(c, 'http://console.example.com')).toBe(false);
    expect(originAllowed(c, 'https://console.example.com.evil.io')).toBe(false);
    expect(originAllowed(c, undefined)).toBe(false);
    expect(originAllowed(parseConfig({ PRINT_AGENT_ORIGINS: '*' }), 'https://any.where')).toBe(true);
  });

  it('explains a bad configuration', () => {
    expect(() => parseConfig({ PRINT_AGENT_PORT: 'abc' })).toThrow(/PRINT_AGENT_PORT: a port number/);
    expect(() => parseConfig({ PRINT_AGENT_ORIGINS: 'https://x.com/home/' })).toThrow(/is not an origin/);
    expect(() => parseConfig({ PRINT_AGENT_TLS_CERT: '/c.pem' })).toThrow(/go together/);
    const d = parseConfig({});
    expect([d.port, d.securePort, d.cainiaoPort, d.tls]).toEqual([8182, 8181, 13528, undefined]);
  });
});
