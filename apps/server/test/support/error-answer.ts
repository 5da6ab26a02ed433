import Fastify from 'fastify';
import { installErrorHandler } from '../../src/http/error-handler.ts';

/** A real error thrown from a route, answered by the app's error handler in `lang`. */
export async function answerTo(error: unknown, lang = 'en') {
  const app = Fastify({ logger: false });
  installErrorHandler(app);
  app.post('/x', async () => {
    throw error;
  });
  const r = await app.inject({ method: 'POST', url: '/x', headers: { 'accept-language': lang }, payload: {} });
  await app.close();
  return { status: r.statusCode, body: r.json(), headers: r.headers };
}
