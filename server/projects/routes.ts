import type { FastifyPluginAsync } from 'fastify';

export const projectRoutes: FastifyPluginAsync = async () => {};
