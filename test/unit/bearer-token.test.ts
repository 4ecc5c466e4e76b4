import type { Services } from '../../src/services';
import { bearerToken, buildContext, tokenContext, type RequestMeta } from '../../src/http/context';

describe('bearerToken: the one reading of `Authorization: Bearer <token>` (HTTP header, connection_init, /metrics)', () => {
  it.each([
    ['Bearer abc.def-ghi', 'abc.def-ghi'],
    ['bearer abc', 'abc'],
    ['BEARER abc', 'abc'],
    ['bEaReR abc', 'abc'],
    ['Bearer    abc', 'abc'],
    ['Bearer\tabc', 'abc'],
    ['Bearer \t abc', 'abc'],
  ])('%j → %j (the scheme in any case, any whitespace before the token)', (value, token) => {
    expect(bearerToken(value)).toBe(token);
  });

  it.each([
    ['', 'empty'],
    ['Bearer', 'no token'],
    ['Bearer ', 'no token after the space'],
    ['Bearer    ', 'only whitespace after the scheme'],
    ['Bearerabc', 'no whitespace after the scheme'],
    [' Bearer abc', 'whitespace before the scheme'],
    ['Bearer abc ', 'whitespace after the token'],
    ['Bearer abc def', 'two words'],
    ['Basic dXNlcjpwYXNz', 'another scheme'],
    ['Token abc', 'another scheme'],
    ['abc', 'a token without a scheme'],
  ])('%j is no token (%s)', (value) => {
    expect(bearerToken(value)).toBeUndefined();
  });

  it.each([undefined, null, 42, true, ['Bearer abc'], { Bearer: 'abc' }])('a value that is not a string (%j) is no token', (value) => {
    expect(bearerToken(value)).toBeUndefined();
  });
});

describe('buildContext and tokenContext read the token the same way', () => {
  const request: RequestMeta = { ip: '127.0.0.1', requestId: 'r-1' };
  const user = { id: 7, role: 'INVESTOR', investorId: 3, sessionId: 's-1' };

  function fakeServices(): { services: Services; identify: jest.Mock } {
    const identify = jest.fn(async (token: string) => (token === 'good' ? { user } : { user: null, failure: 'TOKEN_INVALID' }));
    return { services: { auth: { identify } } as unknown as Services, identify };
  }

  it('identifies the token of a Bearer header in any case and spacing', async () => {
    const { services, identify } = fakeServices();
    const context = await buildContext(services, 'bearer   good', request);
    expect(identify).toHaveBeenCalledWith('good');
    expect(context).toEqual({ user, authFailure: undefined, services, request });
  });

  it('a refused token leaves no user and says why', async () => {
    const { services } = fakeServices();
    expect(await buildContext(services, 'Bearer bad', request)).toMatchObject({ user: null, authFailure: 'TOKEN_INVALID' });
  });

  it.each([undefined, 'Basic good', 'Bearer', 'Bearer good extra'])('%j: no token, so no look-up, no user and no failure', async (authorization) => {
    const { services, identify } = fakeServices();
    expect(await buildContext(services, authorization, request)).toEqual({ user: null, authFailure: undefined, services, request });
    expect(identify).not.toHaveBeenCalled();
  });

  it('tokenContext takes a token already read', async () => {
    const { services, identify } = fakeServices();
    expect((await tokenContext(services, 'good', request)).user).toBe(user);
    expect(await tokenContext(services, undefined, request)).toEqual({ user: null, authFailure: undefined, services, request });
    expect(identify).toHaveBeenCalledTimes(1);
  });
});
