import type { FastifyPluginAsync } from 'fastify';

export const analysisRoutes: FastifyPluginAsync = async () => {};
