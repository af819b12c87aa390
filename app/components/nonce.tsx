import { createContext, useContext } from 'react';

/** The CSP nonce of this response. Browsers hide nonce attributes from the DOM, so on the client it is ''. */
const NonceContext = createContext<string>('');
export const NonceProvider = NonceContext.Provider;
export const useNonce = () => useContext(NonceContext);
