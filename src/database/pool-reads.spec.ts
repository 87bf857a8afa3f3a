import type { DataSource } from 'typeorm';
import { dataSourceOptions } from './data-source-options';
import { poolRead } from './pool-reads';

type Sent = { name?: string; text: string; values: unknown[] };

function fakeDataSource(sent: Sent[], preparedStatements = true): DataSource {
  const master = { query: async (query: Sent) => (sent.push(query), { rows: [{ ok: true }] }) };
  return { driver: { master }, options: dataSourceOptions('postgres://db/docs', 1, { preparedStatements }) } as unknown as DataSource;
}

describe('poolRead', () => {
  it('sends a constant text as one named statement, the same name every time', async () => {
    const sent: Sent[] = [];
    const dataSource = fakeDataSource(sent);
    await expect(poolRead(dataSource, 'SELECT 1 WHERE $1::int = 1', [1])).resolves.toEqual([{ ok: true }]);
    await poolRead(dataSource, 'SELECT 1 WHERE $1::int = 1', [2]);
    await poolRead(dataSource, 'SELECT 2 WHERE $1::int = 1', [1]);
    expect(sent[0].name).toMatch(/^hot_[0-9a-f]{24}$/);
    expect(sent[1]).toEqual({ name: sent[0].name, text: 'SELECT 1 WHERE $1::int = 1', values: [2] });
    expect(sent[2].name).not.toBe(sent[0].name);
  });

  it('stops naming statements once a caller builds too many texts, so connections do not collect them', async () => {
    const sent: Sent[] = [];
    const dataSource = fakeDataSource(sent);
    for (let i = 0; i < 150; i++) await poolRead(dataSource, `SELECT ${i} AS built`, []);
    expect(sent.filter((query) => query.name !== undefined).length).toBeLessThanOrEqual(100);
    expect(sent[149].name).toBeUndefined();
  });

  it('names nothing with DB_PREPARED_STATEMENTS=false (a transaction-mode pooler shares server connections)', async () => {
    const sent: Sent[] = [];
    await poolRead(fakeDataSource(sent, false), 'SELECT 1 WHERE $1::int = 1', [1]);
    expect(sent).toEqual([{ name: undefined, text: 'SELECT 1 WHERE $1::int = 1', values: [1] }]);
  });

  it('runs inside the transaction it is given, on its connection', async () => {
    const sent: Sent[] = [];
    const tx = { query: jest.fn(async () => [{ inTx: true }]) };
    await expect(poolRead(fakeDataSource(sent), 'SELECT 1', [], tx as never)).resolves.toEqual([{ inTx: true }]);
    expect(tx.query).toHaveBeenCalledWith('SELECT 1', []);
    expect(sent).toHaveLength(0);
  });
});
