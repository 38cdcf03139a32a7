// Its own Alert's CSS: it stands in for any screen, whichever stylesheets that screen loads.
import '@mantine/core/styles/Alert.layer.css';
import { Component, type ErrorInfo, type ReactNode } from 'react';
import { Alert, Button, Text } from '@mantine/core';
import { IconAlertTriangle } from '@tabler/icons-react';

interface Props {
  title: string;
  children: ReactNode;
}

interface State {
  error: Error | null;
}

/** A failed local read (storage blocked, a broken row) shows a message with a retry, never a blank page. */
export class ScreenErrorBoundary extends Component<Props, State> {
  override state: State = { error: null };

  static getDerivedStateFromError(error: Error): State {
    return { error };
  }

  override componentDidCatch(error: Error, info: ErrorInfo): void {
    console.error(this.props.title, error, info.componentStack);
  }

  override render() {
    if (!this.state.error) return this.props.children;
    return (
      <Alert color="red" variant="light" title={this.props.title} icon={<IconAlertTriangle size={18} aria-hidden />} role="alert">
        <Text size="sm">{this.state.error.message || 'The local database could not be read.'}</Text>
        <Button mt="sm" variant="light" color="red" onClick={() => this.setState({ error: null })}>
          Try again
        </Button>
      </Alert>
    );
  }
}
