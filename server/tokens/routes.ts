import type { FastifyPluginAsync } from 'fastify';

export const tokenRoutes: FastifyPluginAsync = async () => {};
