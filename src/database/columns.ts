import { ColumnOptions, PrimaryColumnOptions } from 'typeorm';

/**
 * Millisecond precision on purpose: timestamps come from the injected clock (a JS Date), and
 * keyset cursors carry them back, so the stored value must round-trip exactly.
 */
export const timestampColumn = (options: ColumnOptions = {}): ColumnOptions => ({
  type: 'timestamptz',
  precision: 3,
  ...options,
});

export const idColumn = (options: ColumnOptions = {}): ColumnOptions => ({
  type: 'varchar',
  length: 32,
  ...options,
});

export const primaryIdColumn = (options: PrimaryColumnOptions = {}): PrimaryColumnOptions => ({
  type: 'varchar',
  length: 32,
  ...options,
});
