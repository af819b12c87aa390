import { API_METHODS, type ApiContract, type ApiMethod } from './contract';

/**
 * Every API call the server answers, from the route modules' contracts (the same source as the OpenAPI
 * document): what /api-test offers to call.
 */
const contracts = import.meta.glob<ApiContract>(['../routes/api+/**/*.ts', '!../routes/api+/$.ts', '!../routes/api+/**/__*'], { eager: true, import: 'contract' });

export interface ApiCall {
  method: ApiMethod;
  path: string;
  summary: string;
}

export function apiCatalogue(): ApiCall[] {
  const calls: ApiCall[] = [];
  for (const contract of Object.values(contracts)) {
    if (!contract?.path) continue;
    for (const method of API_METHODS) {
      const op = contract.operations[method];
      if (op) calls.push({ method, path: contract.path, summary: op.summary });
    }
  }
  return calls.sort((a, b) => a.path.localeCompare(b.path) || API_METHODS.indexOf(a.method) - API_METHODS.indexOf(b.method));
}
