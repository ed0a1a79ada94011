import '@patternfly/patternfly/patternfly-base.css';
import '@patternfly/patternfly/components/Table/table.css';
import './ui/app/app.css';
import { createRoot } from 'react-dom/client';
import { App } from './ui/app/App';
import { followShellTheme } from './ui/app/theme';

followShellTheme(document.documentElement);
createRoot(document.getElementById('app')!).render(<App />);
